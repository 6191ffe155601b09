/** Who wrote a message in a conversation. */
export type MemoryRole = 'user' | 'assistant' | 'system';

/** Every role a {@link MemoryMessage} may carry, in the order error messages list them. */
export const MEMORY_ROLES: readonly MemoryRole[] = ['user', 'assistant', 'system'];

/**
 * One stored message: the element of `ConversationMemory.toDictList()`.
 *
 * @example
 * const m: MemoryMessage = { role: 'user', content: 'Hi', timestamp: '2025-01-01T12:00:00.000Z' };
 */
export interface MemoryMessage {
  /** `user`, `assistant` or `system`. */
  role: MemoryRole;
  /** The text, stored exactly as given (any Unicode, any length). */
  content: string;
  /** When the message was added, ISO-8601 in UTC (`Date#toISOString()`). */
  timestamp: string;
  /**
   * Extra facts about the message, stored and returned by every backend, e.g.
   * `{ interrupted: true }` on an answer the client stopped mid-stream. A plain JSON object
   * (strings, finite numbers, booleans, null, arrays and plain objects; at most 16 KB as JSON).
   * Absent when the message has none.
   */
  metadata?: Record<string, unknown>;
  /**
   * The tool calls an assistant answer made before (or while) writing its text, in order, each
   * with its result or error: what `recordTurn` stores for a `llm.streamEvents()` turn, what
   * `chat({ history })` replays to the model in its native tool format, and what `toUiMessages`
   * shows as tool parts. At most 64 steps and 64 KB as JSON (see `addTurn` for how larger
   * results are cut). Absent when the answer used no tool.
   */
  tools?: ToolStep[];
}

/**
 * One tool call of an assistant turn and what came of it, as stored in
 * {@link MemoryMessage.tools}. Exactly one of `result` and `error` is set once the call ended;
 * a call the tool loop never ran (the turn was stopped, or `maxSteps` was reached) carries an
 * `error` saying so, so a replayed conversation always pairs each call with an answer.
 *
 * @example
 * const step: ToolStep = { id: 'call_1', name: 'calculator', args: { expression: '2+3' }, result: 5, step: 1 };
 */
export interface ToolStep {
  /** The model's id for the call (pairs the call with its result on replay). */
  id: string;
  /** The tool's name. */
  name: string;
  /** The arguments the model sent, parsed (the raw text when they were not JSON). Plain JSON. */
  args: unknown;
  /** What the tool returned. Plain JSON. */
  result?: unknown;
  /** Why the call failed or did not run (e.g. `interrupted`). */
  error?: string;
  /**
   * Which model call of the tool loop asked for it, from 1: calls of the same round were asked
   * for together, and replay sends them as one assistant message. @default 1
   */
  step?: number;
}
