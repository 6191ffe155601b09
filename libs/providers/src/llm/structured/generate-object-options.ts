import type { CallOptions, HistoryMessage } from '../chat-model.interface.js';
import type { TokenUsage } from '../provider/language-model.interface.js';
import type { ProviderName } from '../resolution/providers.table.js';
import type { SchemaInput } from '../tools/schema-validator.js';

/** Options of `llm.generateObject()` and `llm.streamObject()`. */
export interface GenerateObjectOptions<S extends SchemaInput> extends Omit<
  CallOptions,
  'tools' | 'maxSteps'
> {
  /** JSON Schema (written `as const` to type the result) or Standard Schema (zod, ...). */
  schema: S;
  /** Name of the schema on the wire (OpenAI `json_schema.name`, Anthropic tool name). @default "answer" */
  schemaName?: string;
  /** Extra calls after an invalid reply, each told what was wrong. @default 2 */
  maxRetries?: number;
  /** Earlier turns, oldest first. @default [] */
  history?: readonly HistoryMessage[];
}

/** What `llm.generateObject()` returns. */
export interface GenerateObjectResponse<T> {
  /** The validated object (a Standard Schema's output, transforms applied). */
  object: T;
  /** Model calls made (1 + retries used). */
  attempts: number;
  /** Tokens summed over the attempts, with `costUsd` when the price is known. */
  usage?: TokenUsage & { costUsd?: number };
  /** Provider that answered. */
  provider: ProviderName;
  /** Model that answered. */
  model: string;
}

/** A streamed object so far: every property optional, nested ones too. */
export type PartialObject<T> = T extends (infer E)[]
  ? PartialObject<E>[]
  : T extends object
    ? { [K in keyof T]?: PartialObject<T[K]> }
    : T;
