// One error convention (CONTRIBUTING.md, "Errors"): error classes live in `<family>.errors.ts`
// (several related classes) or `<kebab-name>.error.ts` (one class) files next to the code that
// throws them, their names end in `Error`, and an error a client can get extends `ToolkitError`
// with its HTTP meaning as data, never Nest's `HttpException`.
//
// INTERNAL lists the classes that extend `Error` itself: the two bases and the errors that never
// reach an HTTP answer (abort reasons, a parser's signal, a job's verdict, the CLI's). A new one
// fails until it is listed here, which is the moment to ask whether a client can get it.
import { describe, expect, it } from '@jest/globals';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { errorConventionBreaks, errorConventionBreaksIn } from './support/error-convention.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../..');

const INTERNAL = new Set([
  // The bases: toolkit's errors carry an HTTP status, the CLI's an exit status.
  'ToolkitError',
  'CliError',
  // Abort reasons of a request's or a tool call's signal: nobody is left to answer.
  'ClientDisconnectedError',
  'ServerShutdownError',
  'McpCallCancelledError',
  // Shaped as body-parser's errors (status, type, expose), answered by the same mapping.
  'BodyError',
  // Caught by the code that throws them and turned into a ToolkitError, a job outcome or a retry.
  'FileChangedError',
  'XmlFormatError',
  'ZipFormatError',
  'PermanentIngestionError',
  'BuildAbortedError',
  // The CLI's: one line for the user, no HTTP.
  'AppLoadError',
]);

const problems = (code: string, file: string, internal: readonly string[] = []): string[] =>
  errorConventionBreaks(code, file, new Set(internal)).map((found) => found.problem);

describe('the error convention', () => {
  it('accepts an error file that keeps it', () => {
    const family = [
      "import { ToolkitError } from './toolkit.error.js';",
      'export interface RetryOptions { after: number }',
      'export type Reason = "a" | "b";',
      'export class FirstError extends ToolkitError {}',
      'export class SecondError extends FirstError {}',
      'export function isFirstError(e: unknown): e is FirstError { return e instanceof FirstError; }',
      'const LIMIT = 3;',
    ].join('\n');
    expect(problems(family, 'libs/x/src/thing.errors.ts')).toEqual([]);
    const single = 'export class MissingPlatformPackageError extends ToolkitError {}';
    expect(problems(single, 'libs/x/src/missing-platform-package.error.ts')).toEqual([]);
    expect(
      problems('export class BaseError extends Error {}', 'a/base.error.ts', ['BaseError']),
    ).toEqual([]);
    // Not errors: a filter whose name holds "Exception", classes of other kinds.
    const module = [
      'export class ToolkitExceptionFilter extends BaseExceptionFilter {}',
      'export class Queue {}',
    ].join('\n');
    expect(problems(module, 'libs/x/src/exception.filter.ts')).toEqual([]);
  });

  it('finds an error class declared in a module that is not an error file', () => {
    const code = [
      "import { ToolkitError } from './toolkit.error.js';",
      'export function work(): void {}',
      'export class StreamOverflowError extends ToolkitError {}',
      'class BuildAborted extends Error {}',
    ].join('\n');
    expect(problems(code, 'libs/x/src/stream-source.ts', ['BuildAborted'])).toEqual([
      'StreamOverflowError: declared outside a *.error.ts or *.errors.ts file',
      "BuildAborted: an error class's name ends in Error",
      'BuildAborted: declared outside a *.error.ts or *.errors.ts file',
    ]);
  });

  it('finds HttpException subclasses, unlisted direct Error subclasses and misnamed classes', () => {
    const code = [
      'export class TeapotError extends HttpException {}',
      'export class SignalError extends Error {}',
      'export class RangeProblem extends RangeError {}',
      'export class GoneException extends ToolkitError {}',
      'export class SilentExit extends CliError {}',
    ].join('\n');
    expect(problems(code, 'libs/x/src/x.errors.ts')).toEqual([
      'TeapotError: extends HttpException; extend ToolkitError with the status as data',
      'SignalError: extends Error, not ToolkitError (or list it as internal)',
      "RangeProblem: an error class's name ends in Error",
      'RangeProblem: extends RangeError, not ToolkitError (or list it as internal)',
      "GoneException: an error class's name ends in Error",
      "SilentExit: an error class's name ends in Error",
    ]);
  });

  it('holds one class per *.error.ts and a family per *.errors.ts, with nothing else exported', () => {
    expect(
      problems('export class OtherError extends ToolkitError {}', 'a/budget.error.ts'),
    ).toEqual(['budget.error.ts declares OtherError; expected BudgetError']);
    expect(
      problems('export class PromptError extends ToolkitError {}', 'a/prompt.errors.ts'),
    ).toEqual(['prompt.errors.ts declares 1 error classes; a family has 2+']);
    const extras = [
      'export class AError extends ToolkitError {}',
      'export class BError extends ToolkitError {}',
      'export const RETRY = 5;',
      'export function failure(e: unknown): AError { return new AError(); }',
      'export class Helper {}',
      "export { CError } from './c.error.js';",
    ].join('\n');
    expect(problems(extras, 'a/x.errors.ts')).toEqual([
      'an error file exports only error classes, their types and type guards',
      'failure: only type guards may join errors',
      'Helper: not an error class',
      'an error file declares its exports (no re-exports)',
    ]);
  });

  it('is kept by every library and the CLI', () => {
    const found = [
      'libs/framework/src',
      'libs/providers/src',
      'libs/rag/src',
      'libs/testing/src',
      'apps/cli/src',
    ]
      .flatMap((dir) => errorConventionBreaksIn(ROOT, dir, INTERNAL))
      .map((broken) => `${broken.file}:${broken.line}: ${broken.problem}`);
    expect(found).toEqual([]);
  });

  it('lists as internal only classes that still extend Error itself', () => {
    // A listed class that now extends ToolkitError (or is gone) is taken off the list.
    const everyDirect = [
      'libs/framework/src',
      'libs/providers/src',
      'libs/rag/src',
      'libs/testing/src',
      'apps/cli/src',
    ]
      .flatMap((dir) => errorConventionBreaksIn(ROOT, dir, new Set()))
      .map((broken) => /^(\w+): extends \w+, not ToolkitError/.exec(broken.problem)?.[1])
      .filter((name): name is string => name !== undefined);
    expect(everyDirect.sort()).toEqual([...INTERNAL].sort());
  });
});
