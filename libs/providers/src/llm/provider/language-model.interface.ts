/** One conversation turn as sent to a provider (system prompts travel separately). */
export interface ModelMessage {
  role: 'user' | 'assistant';
  content: string;
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
export type FinishReason = 'stop' | 'length' | 'content-filter' | 'tool-calls' | 'other';

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
  /** Aborts the upstream HTTP request. */
  signal: AbortSignal;
}

/** The whole answer of a non-streamed call. */
export interface GenerateResult {
  text: string;
  finishReason: FinishReason;
  usage?: TokenUsage;
}

/**
 * Parts a streamed call yields: `stream-start` once the provider accepted the request (response
 * headers arrived), `text-delta` per chunk of text, `finish` last with usage and finish reason.
 */
export type StreamPart =
  | { type: 'stream-start' }
  | { type: 'text-delta'; text: string }
  | { type: 'finish'; finishReason: FinishReason; usage?: TokenUsage };

/**
 * The small interface each vendor implements (one file per vendor). Implementations throw
 * toolkit errors (`LlmError` subclasses), never raw SDK errors.
 */
export interface LanguageModel {
  generate(request: ModelRequest): Promise<GenerateResult>;
  stream(request: ModelRequest): AsyncIterable<StreamPart>;
  /** One vector per text, in order. */
  embed(texts: string[], signal?: AbortSignal): Promise<number[][]>;
}

/** A usage record from input and output token counts. */
export function usageOf(inputTokens: number, outputTokens: number): TokenUsage {
  return { inputTokens, outputTokens, totalTokens: inputTokens + outputTokens };
}
