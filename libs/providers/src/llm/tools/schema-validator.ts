import type { StandardSchemaV1 } from '@standard-schema/spec';
import { createRequire } from 'node:module';
import type { Ajv, ErrorObject, ValidateFunction } from 'ajv';

/** A JSON Schema, or any Standard Schema (zod, valibot, ...) that can describe itself as one. */
export type SchemaInput = Readonly<Record<string, unknown>> | StandardSchemaV1;

/** The outcome of checking one value: the (possibly transformed) value, or a problem text. */
export type SchemaCheck = { ok: true; value: unknown } | { ok: false; problem: string };

/** A schema ready to use: its JSON Schema for the wire and a validator. */
export interface CompiledSchema {
  /** JSON Schema sent to providers. */
  readonly jsonSchema: Record<string, unknown>;
  /** Validates a parsed value. */
  check(value: unknown): Promise<SchemaCheck>;
}

let shared: Ajv | undefined;

/** The validator, loaded on first use: apps without tools or schemas never pay for ajv. */
function ajv(): Ajv {
  if (shared) return shared;
  const { Ajv: AjvClass } = createRequire(import.meta.url)('ajv') as typeof import('ajv');
  // `format` is an annotation here: ajv knows no format without ajv-formats, and would warn on
  // the console about each one a schema uses (MCP servers' schemas use many).
  shared = new AjvClass({ allErrors: true, strict: false, validateFormats: false });
  return shared;
}

/** True for a Standard Schema (it has a `~standard.validate`). */
export function isStandardSchema(value: unknown): value is StandardSchemaV1 {
  if ((typeof value !== 'object' && typeof value !== 'function') || value === null) return false;
  const props = (value as { '~standard'?: { validate?: unknown } })['~standard'];
  return typeof props === 'object' && props !== null && typeof props.validate === 'function';
}

function pathOf(error: ErrorObject): string {
  const missing = (error.params as { missingProperty?: string }).missingProperty;
  const path = error.instancePath + (missing ? `/${missing}` : '');
  return path === '' ? '/' : path;
}

/** Ajv errors as one line naming each violated path, e.g. `/city: must be string`. */
export function describeAjvErrors(errors: readonly ErrorObject[] | null | undefined): string {
  return (errors ?? []).map((e) => `${pathOf(e)}: ${e.message ?? 'is invalid'}`).join('; ');
}

function describeIssues(issues: readonly StandardSchemaV1.Issue[]): string {
  return issues
    .map((issue) => {
      const path = (issue.path ?? [])
        .map((p) => String(typeof p === 'object' ? p.key : p))
        .join('/');
      return `/${path}: ${issue.message}`;
    })
    .join('; ');
}

function jsonSchemaOfStandard(schema: StandardSchemaV1): Record<string, unknown> {
  const props = schema['~standard'] as StandardSchemaV1.Props & {
    jsonSchema?: { input(options: { target: string }): Record<string, unknown> };
  };
  if (!props.jsonSchema) {
    throw new TypeError(
      `the ${props.vendor} schema cannot describe itself as JSON Schema (Standard JSON Schema)`,
    );
  }
  const { $schema: _ignored, ...rest } = props.jsonSchema.input({ target: 'draft-07' });
  return rest;
}

/**
 * Compiles a JSON Schema (with ajv) or wraps a Standard Schema. Throws a `TypeError` naming the
 * problem when the JSON Schema is not valid JSON Schema.
 */
export function compileSchema(schema: SchemaInput): CompiledSchema {
  if (isStandardSchema(schema)) {
    const jsonSchema = jsonSchemaOfStandard(schema);
    return {
      jsonSchema,
      async check(value) {
        const result = await schema['~standard'].validate(value);
        return result.issues
          ? { ok: false, problem: describeIssues(result.issues) }
          : { ok: true, value: result.value };
      },
    };
  }
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) {
    throw new TypeError('must be a JSON Schema object or a Standard Schema');
  }
  let validate: ValidateFunction;
  try {
    validate = ajv().compile(schema as Record<string, unknown>);
  } catch (error) {
    throw new TypeError(`is not a valid JSON Schema: ${(error as Error).message}`, {
      cause: error,
    });
  }
  return {
    jsonSchema: schema,
    check(value) {
      return Promise.resolve(
        validate(value)
          ? { ok: true, value }
          : { ok: false, problem: describeAjvErrors(validate.errors) },
      );
    },
  };
}
