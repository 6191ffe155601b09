import type { LoggerService } from '@nestjs/common';
import { ToolkitError } from '../../../providers/src/internal.js';

/**
 * Logs a failure the way toolkit logs them all: a `ToolkitError` (a backend down, a provider
 * failing: expected) in one line, its message naming the backend, with the stack at debug level;
 * anything else (a bug) with its stack.
 *
 * @example
 * logFailure(this.logger, `${req.method} ${url} → 503`, error);
 */
export function logFailure(logger: LoggerService, what: string, error: unknown): void {
  const stack = error instanceof Error ? error.stack : undefined;
  if (!ToolkitError.isInstance(error)) {
    logger.error(`${what}: ${error instanceof Error ? error.message : String(error)}`, stack);
    return;
  }
  logger.error(`${what}: ${error.message}`);
  if (stack) logger.debug?.(stack);
}
