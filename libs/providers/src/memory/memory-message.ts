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
}
