/** Cuts the native backtrace SWC appends to its messages (`Stack backtrace:` and below). */
function withoutBacktrace(message: string): string {
  const cut = message.search(/\n\s*Stack backtrace:/);
  return (cut === -1 ? message : message.slice(0, cut)).trimEnd();
}

/** True for errors in the source text: their stack frames point into the compiler, not the app. */
function isSyntaxError(error: Error): boolean {
  return error.name === 'SyntaxError' || /Syntax Error/.test(error.message);
}

/**
 * What to print when the app's module cannot be loaded: the message once (SWC's native backtrace
 * cut off), then only the JavaScript stack frames, and none for a syntax error, whose code frame
 * already says where the problem is.
 *
 * @example
 * process.stderr.write(`Error: cannot load app.ts: ${describeLoadFailure(error)}\n`);
 */
export function describeLoadFailure(error: unknown): string {
  // Duck-typed: errors from the compiler's native binding may come from another realm.
  if (typeof error !== 'object' || error === null || typeof (error as Error).message !== 'string')
    return String(error);
  const failure = error as Error;
  const message = withoutBacktrace(failure.message);
  if (isSyntaxError(failure)) return message;
  const frames = (failure.stack ?? '').split('\n').filter((line) => /^\s+at /.test(line));
  return frames.length > 0 ? `${message}\n${frames.join('\n')}` : message;
}
