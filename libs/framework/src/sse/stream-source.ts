import { isObservable, takeWhile, type Observable } from 'rxjs';
import { isMessageEvent } from './sse-event.js';
import { StreamOverflowError } from './stream-overflow.error.js';

/** True for anything `for await` can walk: async generators, SDK streams, async iterables. */
export function isAsyncIterable(value: unknown): value is AsyncIterable<unknown> {
  return typeof value === 'object' && value !== null && Symbol.asyncIterator in value;
}

/** An async iterator that can also be walked with `for await`. */
export type WalkableIterator = AsyncIterator<unknown> & AsyncIterable<unknown>;

/**
 * The chunks of one stream, one by one (iterables and Observables the handler emitted walked in
 * turn), given the bound on an Observable's unread output and what to call when it overruns it.
 */
export type ChunkSource = (
  maxPendingBytes: number,
  onOverflow: (error: StreamOverflowError) => void,
) => AsyncGenerator<unknown>;

/**
 * Turns what a streaming handler produced into one async iterator of chunks. Nest hands an
 * interceptor an Observable: it emits each item when the handler returned an Observable, or a
 * single value (a generator, an async iterable, a promise of one) otherwise, which is walked in
 * turn. Calling `return()` on the result unsubscribes the Observable and runs a generator's
 * `finally`.
 */
export async function* streamChunks(
  output$: Observable<unknown>,
  maxPendingBytes: number,
  onOverflow?: (error: StreamOverflowError) => void,
): AsyncGenerator<unknown> {
  const outer = observableIterator(output$, maxPendingBytes, onOverflow);
  try {
    for (;;) {
      const step = await outer.next();
      if (step.done) return;
      const value: unknown = step.value;
      if (isAsyncIterable(value)) yield* value;
      else if (isObservable(value)) yield* observableIterator(value, maxPendingBytes, onOverflow);
      else yield value;
    }
  } finally {
    await outer.return?.();
  }
}

/**
 * A pull-based view of an Observable: values wait in a queue until asked for; `return()`
 * unsubscribes. An Observable cannot be paused, so the queue is bounded: once more than
 * `maxPendingBytes` (approximate event bytes, at least 16 per value) wait, the source is
 * unsubscribed, the queue dropped, `onOverflow` is told at once (the reader may be stuck waiting
 * for its client) and the next read fails with a {@link StreamOverflowError}. 0 or `Infinity`
 * lifts the bound.
 */
export function observableIterator(
  source$: Observable<unknown>,
  maxPendingBytes = Infinity,
  onOverflow?: (error: StreamOverflowError) => void,
): WalkableIterator {
  const bound = maxPendingBytes > 0 ? maxPendingBytes : Infinity;
  const queue: unknown[] = [];
  const sizes: number[] = [];
  let pendingBytes = 0;
  let done = false;
  let failure: { error: unknown } | undefined;
  let wake: (() => void) | undefined;
  const notify = (): void => {
    wake?.();
    wake = undefined;
  };
  // takeWhile unsubscribes from inside `next`, which also stops a synchronous source.
  const subscription = source$.pipe(takeWhile(() => !failure && !done)).subscribe({
    next: (value) => {
      const size = bound === Infinity ? 0 : sizeOf(value);
      pendingBytes += size;
      if (pendingBytes > bound) {
        const error = new StreamOverflowError(bound);
        failure = { error };
        queue.length = 0;
        sizes.length = 0;
        onOverflow?.(error);
      } else {
        queue.push(value);
        sizes.push(size);
      }
      notify();
    },
    error: (error: unknown) => {
      failure ??= { error };
      notify();
    },
    complete: () => {
      if (!failure) done = true;
      notify();
    },
  });
  const iterator: WalkableIterator = {
    async next() {
      while (queue.length === 0 && !done && !failure) {
        await new Promise<void>((resolve) => (wake = resolve));
      }
      if (queue.length > 0) {
        pendingBytes -= sizes.shift() ?? 0;
        return { done: false, value: queue.shift() };
      }
      if (failure) throw failure.error;
      return { done: true, value: undefined };
    },
    return() {
      subscription.unsubscribe();
      done = true;
      queue.length = 0;
      notify();
      return Promise.resolve({ done: true, value: undefined });
    },
    [Symbol.asyncIterator]() {
      return iterator;
    },
  };
  return iterator;
}

/** Approximate bytes a value takes once framed; every event counts for at least 16. */
function sizeOf(value: unknown): number {
  let size = 16;
  if (typeof value === 'string') size += value.length;
  else if (Buffer.isBuffer(value)) size += value.length;
  else if (isMessageEvent(value) && typeof value.data === 'string') size += value.data.length;
  else if (typeof value === 'object' && value !== null) {
    try {
      size += JSON.stringify(value)?.length ?? 0;
    } catch {
      // Not serialisable: it will fail when framed; count the minimum.
    }
  }
  return size;
}
