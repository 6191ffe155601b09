import { BadRequestError } from '../http/http.errors.js';
import { type ParamProblem, UnsupportedMediaTypeError } from '../../../providers/src/index.js';
import { ValidationError } from '../../../providers/src/internal.js';
import type { NormalizedParam, ParamSource, ParamType } from './param-spec.js';
import { validateWithSchema, type SchemaOutcome } from './standard-schema.js';

/** The raw inputs of one request, as Express parsed them. */
export interface RequestInputs {
  method: string;
  path: Record<string, unknown>;
  query: Record<string, unknown>;
  body: unknown;
  /** True when the body is a form (urlencoded or multipart): its values are text, like a query. */
  bodyIsText?: boolean;
  /**
   * The `Content-Type` of a body that was sent but not read (no parser takes that type, e.g.
   * `text/plain`), if any: a parameter missing from it is a 415 rather than a 422.
   */
  unreadBodyType?: string;
}

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** The parameters a handler receives, by name. */
export type BoundValues = Record<string, unknown>;

/**
 * Reads and checks every declared parameter at once, so a 422 names all offending parameters,
 * not just the first. JSON values must already have the declared type; query, path and form
 * values are text and are converted (`"5"` → 5, `"true"` → true). A parameter with a Standard Schema is
 * validated by it; the result is a promise only when such a schema validates asynchronously.
 *
 * @throws BadRequestError when the JSON body is not an object but parameters are expected from it
 * @throws ValidationError listing each missing or wrongly typed parameter
 */
export function bindParams(
  params: readonly NormalizedParam[],
  inputs: RequestInputs,
): BoundValues | Promise<BoundValues> {
  const body = bodyObject(inputs, params);
  const values: BoundValues = {};
  // One slot per parameter keeps the problems in declaration order, async schemas included.
  let problems: ParamProblem[][] | undefined;
  let pending: Promise<void>[] | undefined;
  for (let index = 0; index < params.length; index += 1) {
    const param = params[index];
    const found = lookup(param, inputs, body);
    if (found === undefined && 'default' in param) {
      values[param.name] = param.default;
      continue;
    }
    if (param.schema) {
      if (found === undefined && !param.required) continue;
      const settle = (outcome: SchemaOutcome): void => {
        if ('problems' in outcome) (problems ??= [])[index] = outcome.problems;
        else if (outcome.value !== undefined) values[param.name] = outcome.value;
      };
      const outcome = validateWithSchema(param.name, param.schema, found?.value);
      if (outcome instanceof Promise) (pending ??= []).push(outcome.then(settle));
      else settle(outcome);
      continue;
    }
    if (found === undefined) {
      if (param.required)
        (problems ??= [])[index] = [{ param: param.name, problem: 'is required' }];
      continue;
    }
    const checked = found.text
      ? fromText(param.type, found.value)
      : fromJson(param.type, found.value);
    if ('problem' in checked) {
      (problems ??= [])[index] = [{ param: param.name, problem: checked.problem }];
      continue;
    }
    const problem = constraintProblem(param, checked.value);
    if (problem) (problems ??= [])[index] = [{ param: param.name, problem }];
    else values[param.name] = checked.value;
  }
  if (pending) return Promise.all(pending).then(() => settled(values, problems, params, inputs));
  return settled(values, problems, params, inputs);
}

function settled(
  values: BoundValues,
  problems: ParamProblem[][] | undefined,
  params: readonly NormalizedParam[],
  inputs: RequestInputs,
): BoundValues {
  if (!problems) return values;
  // A body of a type no parser reads (`text/plain`) explains a missing parameter better than
  // "is required" does: the client sent its values, in a form the route cannot read.
  const missing = problems.flat().some((p) => p.problem === 'is required');
  const unread = missing && bodyCouldHold(params) ? inputs.unreadBodyType : undefined;
  if (unread !== undefined) throw unreadBody(unread);
  throw new ValidationError(problems.flat());
}

/** Every input merged (query, then body, then path), for handlers that declare no parameters. */
export function mergeInputs(inputs: RequestInputs): BoundValues {
  const body = isPlainObject(inputs.body) ? inputs.body : {};
  return { ...inputs.query, ...body, ...inputs.path };
}

/** The 415 for a body whose type no parser reads into parameters. */
function unreadBody(type: string): UnsupportedMediaTypeError {
  return new UnsupportedMediaTypeError(
    `Content-Type ${type} is not read here: send the parameters as application/json (or a form)`,
  );
}

/** True when some parameter may come from the body. */
function bodyCouldHold(params: readonly NormalizedParam[]): boolean {
  return params.some((p) => p.in === undefined || p.in === 'body');
}

function bodyObject(
  inputs: RequestInputs,
  params: readonly NormalizedParam[],
): Record<string, unknown> {
  const { body } = inputs;
  if (body === undefined || body === null || body === '' || !BODY_METHODS.has(inputs.method))
    return {};
  if (isPlainObject(body)) return body;
  if (!bodyCouldHold(params)) return {};
  const unread = inputs.unreadBodyType;
  if (unread !== undefined) throw unreadBody(unread);
  throw new BadRequestError('Request body must be a JSON object');
}

function lookup(
  param: NormalizedParam,
  inputs: RequestInputs,
  body: Record<string, unknown>,
): { value: unknown; text: boolean } | undefined {
  for (const source of param.in ? ONLY[param.in] : ANY_SOURCE) {
    const bag = source === 'path' ? inputs.path : source === 'body' ? body : inputs.query;
    if (Object.prototype.hasOwnProperty.call(bag, param.name)) {
      const value = bag[param.name];
      if (value === undefined || value === null) continue;
      return { value, text: source !== 'body' || inputs.bodyIsText === true };
    }
  }
  return undefined;
}

const ANY_SOURCE: readonly ParamSource[] = ['path', 'body', 'query'];
const ONLY: Record<ParamSource, readonly ParamSource[]> = {
  path: ['path'],
  body: ['body'],
  query: ['query'],
};

type Checked = { value: unknown } | { problem: string };

function fromJson(type: ParamType, value: unknown): Checked {
  const ok =
    type === 'any' ||
    (type === 'string' && typeof value === 'string') ||
    (type === 'number' && typeof value === 'number' && Number.isFinite(value)) ||
    (type === 'integer' && typeof value === 'number' && Number.isInteger(value)) ||
    (type === 'boolean' && typeof value === 'boolean') ||
    (type === 'array' && Array.isArray(value)) ||
    (type === 'object' && isPlainObject(value));
  return ok ? { value } : { problem: `must be ${article(type)} (got ${describe(value)})` };
}

function fromText(type: ParamType, value: unknown): Checked {
  if (type === 'array') return { value: Array.isArray(value) ? value : [value] };
  if (Array.isArray(value)) return { problem: `must be ${article(type)} (got several values)` };
  const text = String(value);
  switch (type) {
    case 'any':
    case 'string':
      return { value: text };
    case 'number':
    case 'integer': {
      const num = text.trim() === '' ? NaN : Number(text);
      const ok = type === 'number' ? Number.isFinite(num) : Number.isInteger(num);
      return ok
        ? { value: num }
        : { problem: `must be ${article(type)} (got ${JSON.stringify(text)})` };
    }
    case 'boolean':
      if (text === 'true' || text === '1') return { value: true };
      if (text === 'false' || text === '0') return { value: false };
      return { problem: `must be a boolean (got ${JSON.stringify(text)})` };
    case 'object':
      return { problem: 'must be an object (send it in a JSON body)' };
  }
}

/**
 * Checks `oneOf`, `min`, `max` and `maxLength` on a value of the right type, and that a string
 * holds no NUL (never text; PostgreSQL cannot store it).
 */
function constraintProblem(param: NormalizedParam, value: unknown): string | undefined {
  if (typeof value === 'string' && value.includes('\u0000')) {
    return 'must not contain NUL (\\u0000) characters';
  }
  if (param.oneOf && !param.oneOf.includes(value as string)) {
    const allowed = param.oneOf.map((v) => JSON.stringify(v)).join(', ');
    return `must be one of ${allowed} (got ${describe(value)})`;
  }
  if (typeof value === 'number') {
    if (param.min !== undefined && value < param.min)
      return `must be at least ${param.min} (got ${value})`;
    if (param.max !== undefined && value > param.max)
      return `must be at most ${param.max} (got ${value})`;
  }
  if (param.maxLength !== undefined && (typeof value === 'string' || Array.isArray(value))) {
    if (value.length > param.maxLength) {
      const unit = typeof value === 'string' ? 'characters' : 'items';
      return `must be at most ${param.maxLength} ${unit} long (got ${value.length})`;
    }
  }
  return undefined;
}

function article(type: ParamType): string {
  return type === 'integer' || type === 'object' || type === 'array' ? `an ${type}` : `a ${type}`;
}

function describe(value: unknown): string {
  if (Array.isArray(value)) return 'an array';
  if (value === null) return 'null';
  if (typeof value === 'object') return 'an object';
  const shown = JSON.stringify(value);
  return `${typeof value} ${shown.length > 40 ? `${shown.slice(0, 37)}...` : shown}`;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return (
    typeof value === 'object' && value !== null && !Array.isArray(value) && !Buffer.isBuffer(value)
  );
}
