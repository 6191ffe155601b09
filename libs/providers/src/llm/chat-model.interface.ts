import type { ToolStep } from '../memory/memory-message.js';
import type { FinishReason, TokenUsage } from './provider/language-model.interface.js';
import type { DefinedTool, ToolDefinition } from './tools/tool.js';

/**
 * One earlier turn of a conversation: the memory element shape. Extra fields (such as
 * `timestamp`) are ignored. `role` is `user`, `assistant` or `system`.
 */
export interface HistoryMessage {
  /** Who wrote it: `user`, `assistant` or `system`. */
  role: string;
  /** What was said. */
  content: string;
  /**
   * On an assistant message: the tool calls it made and their results, as conversation memory
   * stores them (`MemoryMessage.tools`, so `memory.toDictList()` can be passed as `history`
   * as is). Replayed to the model in its native tool format before the message's text.
   */
  tools?: readonly ToolStep[];
}

/** What `chat()` accepts: the new user message, or a whole conversation ending with it. */
export type ChatInput = string | readonly HistoryMessage[];

/** Token usage of one finished call, with where it went; passed to `onUsage`. */
export interface UsageReport extends TokenUsage {
  /** Provider that served the call, e.g. `openai` (after any fallback). */
  provider: string;
  /** Model that served the call. */
  model: string;
  /** Why generation stopped (`max-steps` when a tool loop ran out of steps). */
  finishReason: FinishReason;
  /** What the call cost in USD (summed over tool-loop steps), when the model's price is known. */
  costUsd?: number;
  /** Model calls summed into this report (tool loops make several). */
  steps: number;
  /**
   * Milliseconds from the call to its end (a stream's last chunk; a tool loop's last step, tools
   * included). Absent from reports made by hand (e.g. a `MockLLM`).
   */
  durationMs?: number;
  /**
   * Milliseconds from a streamed call's start to its first text or tool-call delta (time to
   * first token). Absent for calls that were not streamed.
   */
  timeToFirstTokenMs?: number;
  /** The call's `userId` (whose spend it is), when it was given one. */
  userId?: string;
}

/** Options every call accepts. Each one overrides the `LLM`'s own setting for this call. */
export interface CallOptions {
  /** System prompt: an OpenAI system message, Anthropic's `system` field. */
  system?: string;
  /** Aborts the upstream HTTP request (e.g. when an SSE client disconnects). */
  signal?: AbortSignal;
  /** Sampling temperature, 0 to 2 (not sent to Anthropic or reasoning models). @default the LLM's `temperature` */
  temperature?: number;
  /** Most tokens to generate. @default the LLM's `maxTokens` */
  maxTokens?: number;
  /**
   * Called once per finished call with its token usage and cost (streamed calls included; a
   * tool loop reports once, summed over its steps).
   */
  onUsage?: (usage: UsageReport) => void;
  /**
   * Whose spend this call counts towards (`llm.budget.per_user_usd_per_day`): a call for a user
   * whose budget is spent fails with 429 and `Retry-After`. Calls without it are not limited.
   */
  userId?: string;
  /** Tools the model may call; the answer comes after the tool loop. @default [] */
  tools?: readonly (DefinedTool | ToolDefinition)[];
  /** Most model calls of one tool loop; the loop then ends with finish reason `max-steps`. @default 5 */
  maxSteps?: number;
  /**
   * Handed to every tool this call runs, as `context` of its second argument: request-specific
   * facts a shared tool needs, e.g. `{ conversation: sessionId }`. @default {}
   */
  toolContext?: Readonly<Record<string, unknown>>;
}

/** Options of `chat()`. */
export interface ChatOptions extends CallOptions {
  /** Earlier turns, oldest first (e.g. `await memory.toDictList()`). @default [] */
  history?: readonly HistoryMessage[];
  /** Stream the answer as text chunks instead of returning one string. @default false */
  stream?: boolean;
}

/** `chat()` options asking for a stream. */
export type StreamingChatOptions = ChatOptions & { stream: true };

/** `chat()` options asking for one string. */
export type TextChatOptions = ChatOptions & { stream?: false };

/**
 * What code that talks to a model needs. `LLM` and `MockLLM` both implement it, so a test can
 * hand a `MockLLM` wherever an `LLM` is injected.
 *
 * @example
 * async function greet(llm: ChatModel) {
 *   return llm.chat('Hello', { system: 'Answer in French.' });
 * }
 */
export interface ChatModel {
  /** Model name (the first one, for an `LLM` with fallbacks). */
  readonly model: string;
  /** Streams the answer to a message: resolves to the text chunks once the first one is ready. */
  chat(message: ChatInput, options: StreamingChatOptions): Promise<AsyncIterable<string>>;
  /** Answers a message with one string. */
  chat(message: ChatInput, options?: TextChatOptions): Promise<string>;
  /** Answers a message: one string, or the text chunks with `stream: true`. */
  chat(message: ChatInput, options?: ChatOptions): Promise<string | AsyncIterable<string>>;
  /** Answers a single prompt. */
  complete(prompt: string, options?: CallOptions): Promise<string>;
  /** Streams the answer to a single prompt as text chunks. */
  stream(prompt: string, options?: CallOptions): AsyncIterable<string>;
  /** Embeds one text. */
  embed(text: string): Promise<number[]>;
  /** Embeds several texts (batched), one vector per text in order. */
  embed(texts: readonly string[]): Promise<number[][]>;
}
