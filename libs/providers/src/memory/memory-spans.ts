import type { SpanAttributeValue, TraceSpanOptions } from '../telemetry/tracer.interface.js';

/** Names of the spans of conversation-memory operations (children of the request's span). */
export const MEMORY_SPAN = {
  /** `toDictList()`: the history read (and cut to a token budget). */
  load: 'toolkit.memory.load',
  /** `add()` and `addTurn()`: one atomic write of one or two messages. */
  add: 'toolkit.memory.add',
  /** `clear()`: the whole history deleted. */
  clear: 'toolkit.memory.clear',
} as const;

/** Attribute names of memory spans. Never a user id nor message content: personal data. */
export const MEMORY_ATTRIBUTE = {
  /** `memory`, `redis` or `postgres` (or a custom store's own `backend`). */
  backend: 'toolkit.memory.backend',
  /** Messages written (`add`), or returned (`load`, after any token budget). */
  messages: 'toolkit.memory.messages',
  /** `load` with a token budget: the budget, and how many stored messages it left out. */
  maxTokens: 'toolkit.memory.max_tokens',
  dropped: 'toolkit.memory.dropped_messages',
  /** `add` of a turn with tool calls: how many steps were stored. */
  toolSteps: 'toolkit.memory.tool_steps',
} as const;

const built = new Map<string, TraceSpanOptions>();

/**
 * The start options of a memory span for `backend` (a `MemoryBackend`, or a custom store's own), built once per backend so an operation
 * allocates nothing for them (tracing off or on).
 *
 * @example
 * await traced(MEMORY_SPAN.load, memorySpanOptions(store.backend), (span) => store.list(userId));
 */
export function memorySpanOptions(backend: string): TraceSpanOptions {
  let options = built.get(backend);
  if (options === undefined) {
    const value: SpanAttributeValue = backend;
    options = Object.freeze({
      kind: 'internal',
      attributes: Object.freeze({ [MEMORY_ATTRIBUTE.backend]: value }),
    });
    built.set(backend, options);
  }
  return options;
}
