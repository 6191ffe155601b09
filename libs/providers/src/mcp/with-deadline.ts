/**
 * Waits for `work` until the wall-clock `deadline` (ms since the epoch) or an abort of `signal`,
 * whichever comes first; `late()` is the error when the deadline passes. `work` goes on.
 */
export function withDeadline<T>(
  work: Promise<T>,
  deadline: number,
  signal: AbortSignal,
  late: () => Error,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(
      () => finish(() => reject(late())),
      Math.max(0, deadline - Date.now()),
    );
    const onAbort = (): void => finish(() => reject(asError(signal.reason)));
    const finish = (settle: () => void): void => {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      settle();
    };
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (value) => finish(() => resolve(value)),
      (error: unknown) => finish(() => reject(asError(error))),
    );
  });
}

function asError(reason: unknown): Error {
  return reason instanceof Error ? reason : new Error(String(reason));
}
