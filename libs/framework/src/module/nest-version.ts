import { Logger } from '@nestjs/common';
import { createRequire } from 'node:module';
import { SUPPORTED_NEST_RANGE } from './supported-nest.js';

const requireFromToolkit = createRequire(import.meta.url);

/** What {@link checkNestVersion} writes to. */
export interface VersionLogger {
  warn(message: string): void;
}

/** The version of the `@nestjs/core` the application loads, or undefined when unreadable. */
export function installedNestVersion(): string | undefined {
  try {
    const manifest = requireFromToolkit('@nestjs/core/package.json') as { version?: unknown };
    return typeof manifest.version === 'string' ? manifest.version : undefined;
  } catch {
    return undefined;
  }
}

/**
 * True when `version` is in `range`, a list of caret ranges joined by `||` (the only form
 * {@link SUPPORTED_NEST_RANGE} uses). A pre-release is outside every range, as npm has it.
 */
export function satisfiesCaretRange(version: string, range: string): boolean {
  const found = /^v?(\d+)\.(\d+)\.(\d+)(-[\w.-]+)?(\+[\w.-]+)?$/.exec(version.trim());
  if (!found || found[4]) return false;
  const have = found.slice(1, 4).map(Number);
  return range.split('||').some((part) => {
    const want = /^\^(\d+)\.(\d+)\.(\d+)$/.exec(part.trim())?.slice(1, 4).map(Number);
    if (!want) throw new Error(`Not a caret range: ${part.trim()}`);
    if (have[0] !== want[0]) return false;
    const minor = want[0] === 0 ? 1 : 0; // ^0.x.y pins the minor version too
    for (let i = 1; i < 3; i++) {
      if (i === minor && have[i] !== want[i]) return false;
      if (have[i] !== want[i]) return have[i] > want[i];
    }
    return true;
  });
}

/**
 * Warns, in one line (no stack), when the application's `@nestjs/core` is outside
 * {@link SUPPORTED_NEST_RANGE}: toolkit keeps running, but a feature may fail. An unreadable
 * version is not warned about.
 *
 * @returns the warning, when there was one
 */
export function checkNestVersion(
  installed: string | undefined = installedNestVersion(),
  logger: VersionLogger = new Logger('toolkit'),
  range: string = SUPPORTED_NEST_RANGE,
): string | undefined {
  if (installed === undefined || satisfiesCaretRange(installed, range)) return undefined;
  const message = `toolkit supports Nest ${range}; this application has @nestjs/core ${installed}`;
  logger.warn(message);
  return message;
}
