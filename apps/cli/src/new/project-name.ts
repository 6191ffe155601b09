import validateNpmPackageName from 'validate-npm-package-name';
import { InvalidProjectNameError } from './new.errors.js';

/**
 * Checks the name given to `toolkit new`: it becomes both the project folder and the npm package
 * name, so it must be a single path segment (no `/`, `\` or `..`) and valid for a new npm
 * package. Throws an {@link InvalidProjectNameError} listing every reason otherwise.
 *
 * @example
 * checkProjectName('my-bot'); // 'my-bot'
 * checkProjectName('My App'); // throws: name can only contain URL-friendly characters; ...
 */
export function checkProjectName(name: string): string {
  const reasons: string[] = [];
  if (/[/\\]/.test(name) || name === '.' || name === '..') {
    reasons.push('it must be a single folder name, without "/", "\\" or ".."');
  }
  const npm = validateNpmPackageName(name);
  if (!npm.validForNewPackages) {
    reasons.push(...(npm.errors ?? []), ...(npm.warnings ?? []));
  }
  if (reasons.length > 0) throw new InvalidProjectNameError(name, reasons);
  return name;
}
