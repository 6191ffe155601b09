import { describe, expect, it } from '@jest/globals';
import { InvalidProjectNameError } from './new.errors.js';
import { checkProjectName } from './project-name.js';

function reasonsFor(name: string): readonly string[] {
  try {
    checkProjectName(name);
  } catch (error) {
    if (error instanceof InvalidProjectNameError) return error.reasons;
    throw error;
  }
  throw new Error(`${JSON.stringify(name)} was accepted`);
}

describe('checkProjectName', () => {
  it.each(['my-bot', 'bot2', 'a', 'my_app.v2'])('accepts %s', (name) => {
    expect(checkProjectName(name)).toBe(name);
  });

  it('accepts a name of 214 characters and refuses one of 215', () => {
    expect(checkProjectName('x'.repeat(214))).toHaveLength(214);
    expect(reasonsFor('x'.repeat(215)).join('\n')).toMatch(/more than 214 characters/);
  });

  it.each<[string, RegExp]>([
    ['../x', /single folder name/],
    ['a/b', /single folder name/],
    ['a\\b', /single folder name/],
    ['@scope/pkg', /single folder name/],
    ['..', /single folder name/],
    ['.', /single folder name/],
    ['My App', /URL-friendly characters/],
    ['MyApp', /capital letters/],
    ['', /length must be greater than zero/],
    ['.hidden', /cannot start with a period/],
    ['_private', /cannot start with an underscore/],
    [' padded', /leading or trailing spaces/],
    ['node_modules', /not a valid package name/],
    ['fs', /core module name/],
  ])('refuses %j with the reason', (name, reason) => {
    expect(reasonsFor(name).join('\n')).toMatch(reason);
  });

  it('gives every reason in one message, with exit status 1 and a hint', () => {
    const error = (() => {
      try {
        checkProjectName('../My App');
      } catch (caught) {
        return caught as InvalidProjectNameError;
      }
      throw new Error('accepted');
    })();
    expect(error.exitCode).toBe(1);
    expect(error.message).toMatch(/^Invalid project name "..\/My App": it must be a single folder/);
    expect(error.message).toContain('URL-friendly');
    expect(error.hint).toContain('my-app');
  });
});
