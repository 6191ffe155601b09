import { ToolkitError } from './toolkit.error.js';

/**
 * A configuration value that cannot be used. Raised at start-up; its message is one line that
 * names the key and where the value came from, e.g.
 * `Invalid configuration: cache.ttl must be a non-negative integer (got "abc") in toolkit.yaml`.
 *
 * @example
 * throw new ConfigError('styles', 'must map style names to instructions', 'toolkit.yaml');
 */
export class ConfigError extends ToolkitError {
  constructor(
    readonly key: string,
    readonly problem: string,
    readonly source: string,
  ) {
    super(`Invalid configuration: ${key} ${problem} in ${source}`, { statusCode: 500 });
  }
}
