import type { LoggerService, LogLevel } from '@nestjs/common';
import type { AppSettings } from '../config/toolkit-config.interface.js';
import { ToolkitLogger } from '../logging/toolkit-logger.js';

/**
 * The logger `App` gives Nest: `false` and a `LoggerService` of the user's as they are; otherwise
 * a {@link ToolkitLogger} with the given levels (`error` and `warn` by default, plus `log`, the
 * level of access lines, when `app.access_log` is on), writing text or JSON (`app.log_format`).
 */
export function appLogger(
  option: LogLevel[] | false | LoggerService | undefined,
  settings: Pick<AppSettings, 'access_log' | 'log_format'>,
): LoggerService | false {
  if (option === false) return false;
  if (option !== undefined && !Array.isArray(option)) return option;
  const defaults: LogLevel[] = settings.access_log ? ['error', 'warn', 'log'] : ['error', 'warn'];
  return new ToolkitLogger({
    logLevels: option ?? defaults,
    json: settings.log_format === 'json',
  });
}
