import { ConfigError } from '../errors/config.error.js';

/**
 * `timeout` seconds (default 2) as whole milliseconds.
 * @throws ConfigError naming `key` when it is not a positive number.
 */
export function timeoutMilliseconds(key: string, timeout: number | undefined): number {
  const seconds = timeout ?? 2;
  if (typeof seconds !== 'number' || !Number.isFinite(seconds) || seconds <= 0) {
    throw new ConfigError(
      key,
      `must be a positive number of seconds (got ${String(seconds)})`,
      'the settings',
    );
  }
  return Math.max(1, Math.round(seconds * 1000));
}
