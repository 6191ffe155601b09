import { INTERCEPTORS_METADATA } from '@nestjs/common/constants.js';

type Ranked = { toolkitOrder?: number };

/**
 * Puts toolkit's method interceptors in their documented order, whatever the order of the
 * decorators: `@Stream` outermost, then `@Cache`, then the method's own `@UseInterceptors`, in
 * the order they were declared. Class-level and global interceptors wrap all of these.
 */
export function orderToolkitInterceptors(handler: object): void {
  const list = Reflect.getMetadata(INTERCEPTORS_METADATA, handler) as unknown[] | undefined;
  if (!list || list.length < 2) return;
  const rank = (entry: unknown): number =>
    typeof entry === 'function' ? ((entry as Ranked).toolkitOrder ?? Infinity) : Infinity;
  const ordered = list
    .map((entry, index) => ({ entry, index }))
    .sort((a, b) => rank(a.entry) - rank(b.entry) || a.index - b.index)
    .map(({ entry }) => entry);
  Reflect.defineMetadata(INTERCEPTORS_METADATA, ordered, handler);
}
