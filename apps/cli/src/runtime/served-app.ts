/** What the serving child needs from the exported app: `App` from `toolkit` fits. */
export interface ServableApp {
  run(options: { host?: string; port?: number; announce?: boolean }): Promise<unknown>;
  close(): Promise<void>;
  readonly title?: string;
  readonly version?: string;
  /** The resolved configuration (toolkit's `App` has it): tells how long a shutdown may take. */
  config?(): Promise<{ app: { shutdown_grace: number } }>;
}

/** A finished request that called an LLM, as `toolkit dev` prints it (see `formatLlmRequest`). */
export interface LlmRequestMessage {
  type: 'llm-request';
  method: string;
  /** The matched route's pattern; `null` when none matched. */
  route: string | null;
  status: number;
  /** Model of the request's last call. */
  model: string;
  /** Prompt tokens, summed over the request's calls. */
  inputTokens: number;
  /** Generated tokens, summed over the request's calls. */
  outputTokens: number;
  /** USD, when every call's price was known. */
  costUsd?: number;
  /** Ms to the first token of the request's first streamed call. */
  timeToFirstTokenMs?: number;
}

/** Messages the serving child sends its parent over the IPC channel. */
export type ServeMessage =
  | { type: 'listening'; pid: number; title?: string; version?: string; shutdownGraceMs?: number }
  | { type: 'failed'; message: string }
  | LlmRequestMessage;

/** True when `value` can be served: it has `run()` and `close()`. */
export function isServableApp(value: unknown): value is ServableApp {
  if (typeof value !== 'object' || value === null) return false;
  const app = value as Record<string, unknown>;
  return typeof app.run === 'function' && typeof app.close === 'function';
}

/** True when `value` is a {@link ServeMessage}. */
export function isServeMessage(value: unknown): value is ServeMessage {
  return typeof value === 'object' && value !== null && 'type' in value;
}
