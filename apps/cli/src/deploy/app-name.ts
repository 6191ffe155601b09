import { InvalidArgumentError } from 'commander';

/** Lower-case letters, digits and dashes, starting with a letter: valid on every platform. */
const APP_NAME = /^[a-z][a-z0-9-]{1,61}[a-z0-9]$/;

/** Why `name` cannot be an app name, or `undefined` when it can. */
export function appNameProblem(name: string): string | undefined {
  if (APP_NAME.test(name) && !name.includes('--')) return undefined;
  return 'App names use 3 to 63 lower-case letters, digits and single dashes, and start with a letter.';
}

/**
 * Parses `--app-name`; an invalid name is a usage error.
 *
 * @example
 * parseAppName('my-bot'); // 'my-bot'
 */
export function parseAppName(value: string): string {
  const problem = appNameProblem(value.trim());
  if (problem) throw new InvalidArgumentError(problem);
  return value.trim();
}

/**
 * A valid app name derived from a package name (`@acme/My_Bot` → `my-bot`), or `undefined`.
 *
 * @example
 * suggestAppName('@acme/My_Bot'); // 'my-bot'
 */
export function suggestAppName(packageName: string | undefined): string | undefined {
  if (!packageName) return undefined;
  const name = packageName
    .replace(/^@[^/]+\//, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^[^a-z]+|-+$/g, '')
    .slice(0, 63);
  return appNameProblem(name) ? undefined : name;
}
