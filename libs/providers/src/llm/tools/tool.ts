import type { StandardSchemaV1 } from '@standard-schema/spec';
import { ConfigError } from '../../errors/config.error.js';
import type { FromJsonSchema } from './from-json-schema.js';
import { compileSchema } from './schema-validator.js';
import type { CompiledSchema, SchemaInput } from './schema-validator.js';

/** What a tool's `execute` receives besides its arguments. */
export interface ToolContext {
  /** Aborts when the call is abandoned (the HTTP client went away, the caller aborted). */
  signal: AbortSignal;
  /** The id the model gave this call. */
  callId: string;
  /**
   * What the caller passed as `toolContext` (e.g. whose conversation this is, so a tool shared
   * by every request reads and writes only that one's data); `{}` when it passed nothing.
   */
  context: Readonly<Record<string, unknown>>;
}

/**
 * The type of values a schema accepts: a Standard Schema's (zod, ...) output type, or what a
 * JSON Schema written `as const` describes.
 */
export type SchemaOutput<S> = S extends StandardSchemaV1
  ? StandardSchemaV1.InferOutput<S>
  : FromJsonSchema<S>;

/** The arguments type a tool's `parameters` describe. */
export type ToolArgs<P> = SchemaOutput<P>;

/**
 * A function the model may call: a name, a description the model reads, the JSON Schema (or
 * Standard Schema, such as zod) of its arguments, and `execute`. Its result is sent back to the
 * model (strings as they are, anything else as JSON).
 */
export interface ToolDefinition<P extends SchemaInput = SchemaInput, R = unknown> {
  /** Name the model calls it by: letters, digits, `_` and `-`, up to 64 characters. */
  name: string;
  /** What it does and when to use it, for the model. */
  description: string;
  /** JSON Schema of the arguments object (written `as const` to type `args`), or a Standard Schema. */
  parameters: P;
  /** Runs the tool; throwing reports the error to the model, never to the HTTP client. */
  execute(args: ToolArgs<P>, context: ToolContext): R | Promise<R>;
}

const TOOL_NAME = /^[A-Za-z0-9_-]{1,64}$/;
const COMPILED = Symbol('toolkit.tool.compiled');

/** A tool checked by {@link defineTool}: its schema compiled once. */
export interface DefinedTool<
  P extends SchemaInput = SchemaInput,
  R = unknown,
> extends ToolDefinition<P, R> {
  /** @internal */
  readonly [COMPILED]: CompiledSchema;
}

/**
 * Checks a tool once, when it is defined: its name, its description, and that `parameters` is a
 * valid JSON Schema (compiled with ajv) or a Standard Schema that converts to one. A bad
 * definition throws a `ConfigError` naming the tool.
 *
 * @example
 * const weather = defineTool({
 *   name: 'weather',
 *   description: 'Current weather in a city',
 *   parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } as const,
 *   execute: async ({ city }) => ({ city, celsius: 21 }),
 * });
 */
export function defineTool<const P extends SchemaInput, R>(
  definition: ToolDefinition<P, R>,
): DefinedTool<P, R> {
  if (COMPILED in definition) return definition as DefinedTool<P, R>;
  const where = `tool "${String(definition.name)}"`;
  if (typeof definition.name !== 'string' || !TOOL_NAME.test(definition.name)) {
    throw new ConfigError('name', 'must be 1-64 letters, digits, "_" or "-"', where);
  }
  if (typeof definition.description !== 'string') {
    throw new ConfigError('description', 'must be a string', where);
  }
  if (typeof definition.execute !== 'function') {
    throw new ConfigError('execute', 'must be a function', where);
  }
  let compiled: CompiledSchema;
  try {
    compiled = compileSchema(definition.parameters);
  } catch (error) {
    throw new ConfigError('parameters', (error as Error).message, where);
  }
  if (compiled.jsonSchema.type !== 'object') {
    throw new ConfigError('parameters', 'must describe an object (type: "object")', where);
  }
  return Object.freeze({ ...definition, [COMPILED]: compiled });
}

/** The compiled schema of a tool (defining it first when needed). */
export function compiledSchemaOf(tool: ToolDefinition | DefinedTool): CompiledSchema {
  return defineTool<SchemaInput, unknown>(tool)[COMPILED];
}
