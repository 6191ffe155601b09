import { ConfigError } from '../errors/config.error.js';

/**
 * Returns `value` when it is a usable `memory.max_history` (a positive integer).
 * @throws ConfigError naming the key.
 */
export function assertMaxHistory(value: unknown): number {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value > 0) return value;
  throw new ConfigError(
    'memory.max_history',
    `must be a positive integer (got ${JSON.stringify(value)})`,
    'the memory store options',
  );
}
