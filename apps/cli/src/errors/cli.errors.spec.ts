import { describe, expect, it } from '@jest/globals';
import { ToolkitError } from '../../../../libs/providers/src/errors/toolkit.error.js';
import { EXIT_FAILURE, EXIT_USAGE } from '../cli.constants.js';
import { CliError, MissingToolError, SilentExitError, UsageError } from './cli.errors.js';

describe("the CLI's errors", () => {
  it('carry an exit status and no HTTP status: they are not the HTTP family', () => {
    const error = new CliError('jest was not found', { hint: 'npm install --save-dev jest' });
    expect(error.exitCode).toBe(EXIT_FAILURE);
    expect(error.hint).toBe('npm install --save-dev jest');
    expect('statusCode' in error).toBe(false);
    expect(ToolkitError.isInstance(error)).toBe(false);
  });

  it('are named by their class and keep their cause', () => {
    const cause = new Error('ENOENT');
    const error = new CliError('could not read the folder', { cause });
    expect(error.name).toBe('CliError');
    expect(error.cause).toBe(cause);
    expect(new UsageError('choose one').name).toBe('UsageError');
    expect(new UsageError('choose one').exitCode).toBe(EXIT_USAGE);
  });

  it('subclass it for a missing tool and a silent exit', () => {
    const missing = new MissingToolError('vercel', 'npm install --global vercel');
    expect(missing).toBeInstanceOf(CliError);
    expect(missing.message).toBe('vercel was not found');
    expect(missing.hint).toBe('Install it with: npm install --global vercel');
    expect(new SilentExitError(3)).toMatchObject({ exitCode: 3, message: '' });
  });
});
