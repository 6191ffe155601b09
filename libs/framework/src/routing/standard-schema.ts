import type { StandardSchemaV1 } from '@standard-schema/spec';
import type { ParamProblem } from '../../../providers/src/index.js';

/** True for any Standard Schema (zod, valibot, arktype, ...): it has a `~standard` validator. */
export function isStandardSchema(value: unknown): value is StandardSchemaV1 {
  if ((typeof value !== 'object' && typeof value !== 'function') || value === null) return false;
  const props = (value as { '~standard'?: { validate?: unknown } })['~standard'];
  return typeof props === 'object' && props !== null && typeof props.validate === 'function';
}

/** The outcome of one validation: the schema's output, or the problems found. */
export type SchemaOutcome = { value: unknown } | { problems: ParamProblem[] };

/**
 * Validates `value` as the parameter `name` with a Standard Schema. Issues become 422 details
 * named by the parameter and the issue's path (`user.email`); an absent value the schema refuses
 * is reported as `is required`, like every other parameter. Synchronous when the schema is.
 */
export function validateWithSchema(
  name: string,
  schema: StandardSchemaV1,
  value: unknown,
): SchemaOutcome | Promise<SchemaOutcome> {
  const result = schema['~standard'].validate(value);
  return result instanceof Promise
    ? result.then((settled) => outcomeOf(name, value, settled))
    : outcomeOf(name, value, result);
}

function outcomeOf(
  name: string,
  input: unknown,
  result: StandardSchemaV1.Result<unknown>,
): SchemaOutcome {
  if (!result.issues) return { value: result.value };
  if (input === undefined) return { problems: [{ param: name, problem: 'is required' }] };
  return {
    problems: result.issues.map((issue) => ({
      param: joinPath(name, issue.path),
      problem: issue.message,
    })),
  };
}

/** `name` followed by the issue's path: `user.address.0.city`. */
export function joinPath(name: string, path: StandardSchemaV1.Issue['path']): string {
  const keys = (path ?? []).map((segment) =>
    typeof segment === 'object' && segment !== null ? segment.key : segment,
  );
  return [name, ...keys.map((key) => String(key))].filter((part) => part !== '').join('.');
}
