import { EXIT_FAILURE } from '../cli.constants.js';
import { SilentExitError } from '../errors/cli.errors.js';

/** The verdict of one `toolkit doctor` check. */
export type CheckStatus = 'ok' | 'warn' | 'fail';

/** One line of `toolkit doctor`: what was checked, what was found, and the fix when it failed. */
export interface DoctorCheck {
  /** Short name of what was checked, e.g. `node`, `config`, `model`, `redis`, `port`. */
  readonly name: string;
  readonly status: CheckStatus;
  /** What was found, e.g. `v20.20.2` or `redis://127.0.0.1:6379 answered PING`. Never a secret. */
  readonly detail: string;
  /** The one thing to do about a warning or failure. */
  readonly fix?: string;
  /** Round-trip milliseconds, for backends. */
  readonly ms?: number;
}

const MARKS: Record<CheckStatus, string> = { ok: 'ok  ', warn: 'warn', fail: 'FAIL' };

/**
 * The report as text, one line per check (`ok   node    v22.12.0 ...`), each failure or warning
 * followed by its fix, and a last line with the verdict.
 *
 * @example
 * process.stdout.write(renderDoctorReport(checks));
 */
export function renderDoctorReport(checks: readonly DoctorCheck[]): string {
  const width = Math.max(...checks.map((check) => check.name.length));
  const lines = checks.map((check) => {
    const ms = check.ms === undefined ? '' : ` (${check.ms} ms)`;
    const fix = check.fix ? ` - fix: ${check.fix}` : '';
    return `${MARKS[check.status]} ${check.name.padEnd(width)}  ${check.detail}${ms}${fix}`;
  });
  const failed = checks.filter((check) => check.status === 'fail').length;
  lines.push(
    failed === 0 ? 'All checks passed.' : `${failed} check${failed === 1 ? '' : 's'} failed.`,
  );
  return `${lines.join('\n')}\n`;
}

/** True when no check failed (warnings pass). */
export function doctorPassed(checks: readonly DoctorCheck[]): boolean {
  return checks.every((check) => check.status !== 'fail');
}

/**
 * Prints the report on stdout, as lines ({@link renderDoctorReport}) or as JSON
 * (`{ ok, checks }`), and ends the command with status 1 when a check failed.
 *
 * @example
 * printDoctorReport(checks, options.json ?? false);
 */
export function printDoctorReport(checks: readonly DoctorCheck[], json: boolean): void {
  const passed = doctorPassed(checks);
  process.stdout.write(
    json ? `${JSON.stringify({ ok: passed, checks }, null, 2)}\n` : renderDoctorReport(checks),
  );
  if (!passed) throw new SilentExitError(EXIT_FAILURE);
}

/**
 * Hides the password of a connection URL (`redis://:secret@host` → `redis://:***@host`).
 *
 * @example
 * redactUrl('postgres://app:pw@db/app'); // 'postgres://app:***@db/app'
 */
export function redactUrl(url: string): string {
  return url.replace(/^([a-z+]+:\/\/[^:/@]*):[^@/]*@/i, '$1:***@');
}
