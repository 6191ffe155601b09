import { isObservable, type Observable } from 'rxjs';

/** True for anything `for await` can walk: async generators, SDK streams, async iterables. */
export function isAsyncIterable(value: unknown): value is AsyncIterable<unknown> {
  return typeof value === 'object' && value !== null && Symbol.asyncIterator in value;
}

/**
 * Turns what a streaming handler produced into one async iterator of chunks. Nest hands the
 * interceptor an Observable: it emits each item when the handler returned an Observable, or a
 * single value (a generator, an async iterable, a promise of one) otherwise, which is walked in
 * turn. Calling `return()` on the result unsubscribes the Observable and runs a generator's
 * `finally`.
 */
export async function* streamChunks(output$: Observable<unknown>): AsyncGenerator<unknown> {
  const outer = observableIterator(output$);
  try {
    for (;;) {
      const step = await outer.next();
      if (step.done) return;
      const value: unknown = step.value;
      if (isAsyncIterable(value)) yield* value;
      else if (isObservable(value)) yield* observableIterator(value);
      else yield value;
    }
  } finally {
    await outer.return?.();
  }
}

/**
 * A pull-based view of an Observable: values are queued until asked for; `return()`
 * unsubscribes.
 */
export function observableIterator(
  source$: Observable<unknown>,
): AsyncIterator<unknown> & AsyncIterable<unknown> {
  const queue: unknown[] = [];
  let done = false;
  let failure: { error: unknown } | undefined;
  let wake: (() => void) | undefined;
  const notify = (): void => {
    wake?.();
    wake = undefined;
  };
  const subscription = source$.subscribe({
    next: (value) => {
      queue.push(value);
      notify();
    },
    error: (error: unknown) => {
      failure = { error };
      notify();
    },
    complete: () => {
      done = true;
      notify();
    },
  });
  const iterator: AsyncIterator<unknown> & AsyncIterable<unknown> = {
    async next() {
      while (queue.length === 0 && !done && !failure) {
        await new Promise<void>((resolve) => (wake = resolve));
      }
      if (queue.length > 0) return { done: false, value: queue.shift() };
      if (failure) throw failure.error;
      return { done: true, value: undefined };
    },
    return() {
      subscription.unsubscribe();
      done = true;
      notify();
      return Promise.resolve({ done: true, value: undefined });
    },
    [Symbol.asyncIterator]() {
      return iterator;
    },
  };
  return iterator;
}
