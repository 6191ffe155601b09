import { InvalidArgumentError } from 'commander';

/**
 * Parses a TCP port option. A value that is not a whole number from 1 to 65535 is a usage error
 * (commander reports it and the CLI exits with 2).
 *
 * @example
 * parsePort('8000'); // 8000
 */
export function parsePort(value: string): number {
  const port = /^\d+$/.test(value.trim()) ? Number(value) : Number.NaN;
  if (!Number.isInteger(port) || port < 1 || port > 65535) {
    throw new InvalidArgumentError('The port must be an integer from 1 to 65535.');
  }
  return port;
}

/**
 * Parses a non-empty text option (a host, a region), refusing blanks and whitespace.
 *
 * @example
 * parseWord('0.0.0.0'); // '0.0.0.0'
 */
export function parseWord(value: string): string {
  if (value.trim() === '' || /\s/.test(value.trim())) {
    throw new InvalidArgumentError('Expected a non-empty value without spaces.');
  }
  return value.trim();
}

/**
 * Parses a concurrency option: a whole number from 1 to 256.
 *
 * @example
 * parseConcurrency('8'); // 8
 */
export function parseConcurrency(value: string): number {
  const count = /^\d+$/.test(value.trim()) ? Number(value) : Number.NaN;
  if (!Number.isInteger(count) || count < 1 || count > 256) {
    throw new InvalidArgumentError('Expected an integer from 1 to 256.');
  }
  return count;
}
