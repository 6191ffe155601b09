import { INTERCEPTORS_METADATA } from '@nestjs/common/constants.js';

/** One of toolkit's method interceptors, as `@Stream` and `@Cache` attach it. */
type ToolkitInterceptor = abstract new (...args: never[]) => unknown;

/**
 * Checks, as `@Stream()` or `@Cache()` attaches its interceptor, that the method's own
 * interceptors will run inside it. Nest runs a method's interceptors in the order their
 * decorators ran, and decorators run from the one nearest the method upwards: an
 * `@UseInterceptors()` written below `@Stream()` would wrap the stream and see its end rather than
 * its chunks, and one below `@Cache()` would run on every cache hit. Toolkit does not reorder
 * Nest's metadata; it refuses that order, when the class is defined, naming the fix.
 *
 * @param decorator what is being applied (`'@Stream()'`), for the message
 * @param handler the decorated method
 * @param toolkit toolkit's own interceptors, which may come in either order
 * @throws TypeError when the method already has an interceptor of its own
 */
export function assertToolkitInterceptorsOuter(
  decorator: string,
  handler: object,
  toolkit: readonly ToolkitInterceptor[],
): void {
  const list = (Reflect.getMetadata(INTERCEPTORS_METADATA, handler) ?? []) as unknown[];
  const own = list.filter((entry) => !toolkit.includes(entry as ToolkitInterceptor));
  if (own.length === 0) return;
  const method = (handler as { name?: string }).name || 'the method';
  throw new TypeError(
    `${decorator} on ${method}() is written above @UseInterceptors(${own.map(nameOf).join(', ')}): ` +
      `Nest runs the interceptors of the decorators nearest the method outermost, so they would wrap ` +
      `${decorator} instead of running inside it. Write ${decorator} below @UseInterceptors(), ` +
      `nearest the method.`,
  );
}

function nameOf(entry: unknown): string {
  if (typeof entry === 'function') return entry.name || 'an interceptor';
  const type = (entry as { constructor?: { name?: string } } | null)?.constructor?.name;
  return type ? `a ${type}` : 'an interceptor';
}
