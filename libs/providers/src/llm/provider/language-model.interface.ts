/** A tool call the model asked for; `arguments` is the raw JSON text it sent. */
export interface ModelToolCall {
  /** The vendor's call id, echoed back with the result. */
  id: string;
  /** Tool name. */
  name: string;
  /** Arguments as JSON text (possibly invalid: the tool loop reports that back). */
  arguments: string;
}

/**
 * One conversation turn as sent to a provider (system prompts travel separately): user and
 * assistant text, an assistant turn asking for tool calls, or one tool's result.
 */
export type ModelMessage =
  | { role: 'user'; content: string }
  | { role: 'assistant'; content: string; toolCalls?: ModelToolCall[] }
  | { role: 'tool'; content: string; toolCallId: string; name: string; isError?: boolean };

/** A tool as a provider sees it: name, description and JSON Schema of its arguments. */
export interface ModelToolSpec {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

/** Ask for a JSON reply matching `schema` (OpenAI: `response_format`; others: their JSON mode). */
export interface ModelResponseFormat {
  type: 'json';
  /** Name of the schema on the wire. */
  name: string;
  schema: Record<string, unknown>;
}

/** Tokens a call consumed, as the provider reported them. */
export interface TokenUsage {
  /** Prompt tokens (Anthropic: including cache reads and writes). */
  inputTokens: number;
  /** Generated tokens. */
  outputTokens: number;
  /** `inputTokens + outputTokens`. */
  totalTokens: number;
}

/** Why generation stopped, in one vocabulary for every provider. */
export type FinishReason =
  'stop' | 'length' | 'content-filter' | 'tool-calls' | 'max-steps' | 'other';

/** A provider-neutral generation request. */
export interface ModelRequest {
  /** Model name on the wire. */
  model: string;
  /** System prompt (OpenAI: a leading system message; Anthropic: the `system` field). */
  system?: string;
  /** The conversation, oldest first, ending with the new user message. */
  messages: ModelMessage[];
  temperature?: number;
  maxTokens: number;
  /** Tools the model may call. */
  tools?: ModelToolSpec[];
  /** `required` forces some tool call; a name forces that tool. @default "auto" */
  toolChoice?: 'auto' | 'required' | { name: string };
  /** Ask for JSON output. */
  responseFormat?: ModelResponseFormat;
  /** Aborts the upstream HTTP request. */
  signal: AbortSignal;
}

/** What the provider said about the answer itself (for traces), when it said it. */
export interface ResponseInfo {
  /** The provider's id of the answer, e.g. `chatcmpl-123` or `msg_123`. */
  id?: string;
  /** The model that actually answered, e.g. `gpt-4o-mini-2024-07-18`. */
  model?: string;
}

/** The whole answer of a non-streamed call. */
export interface GenerateResult {
  text: string;
  /** Tool calls the model asked for (finish reason `tool-calls`). */
  toolCalls?: ModelToolCall[];
  finishReason: FinishReason;
  usage?: TokenUsage;
  /** Response id and model, when the provider sent them. */
  response?: ResponseInfo;
}

/**
 * Parts a streamed call yields: `stream-start` once the provider accepted the request (response
 * headers arrived), `text-delta` per chunk of text, `tool-call` per complete tool call (once its
 * argument fragments are all in), `finish` last with usage and finish reason.
 */
export type StreamPart =
  | { type: 'stream-start' }
  | { type: 'text-delta'; text: string }
  | ({ type: 'tool-call' } & ModelToolCall)
  | { type: 'finish'; finishReason: FinishReason; usage?: TokenUsage; response?: ResponseInfo };

/**
 * The small interface each vendor implements (one file per vendor). Implementations throw
 * toolkit errors (`LlmError` subclasses), never raw SDK errors.
 */
export interface LanguageModel {
  generate(request: ModelRequest): Promise<GenerateResult>;
  stream(request: ModelRequest): AsyncIterable<StreamPart>;
  /**
   * One vector per text, in order. `onUsage` receives the prompt tokens of each request, when
   * the provider reports them (for the embeddings span).
   */
  embed(
    texts: string[],
    signal?: AbortSignal,
    onUsage?: (inputTokens: number) => void,
  ): Promise<number[][]>;
}

/** A usage record from input and output token counts. */
export function usageOf(inputTokens: number, outputTokens: number): TokenUsage {
  return { inputTokens, outputTokens, totalTokens: inputTokens + outputTokens };
}
