import { InvalidArgumentError } from 'commander';

/**
 * Parses `toolkit new --directory`: any non-blank path; a blank one is a usage error.
 *
 * @example
 * parseDirectory('projects'); // 'projects'
 */
export function parseDirectory(value: string): string {
  if (value.trim() === '') throw new InvalidArgumentError('Expected a folder path.');
  return value;
}
