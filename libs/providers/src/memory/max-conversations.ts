import { ConfigError } from '../errors/config.error.js';

/** `memory.max_conversations` when unset: the same for every backend (see the README's table). */
export const DEFAULT_MAX_CONVERSATIONS = 10_000;

/**
 * Returns `value` when it is a usable `memory.max_conversations` (a positive integer).
 * @throws ConfigError naming the key.
 */
export function assertMaxConversations(value: unknown): number {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value > 0) return value;
  throw new ConfigError(
    'memory.max_conversations',
    `must be a positive integer (got ${String(value)})`,
    'the memory store options',
  );
}
