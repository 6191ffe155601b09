/**
 * Collapses concurrent identical work: while a loader for a key is running, other callers for the
 * same key wait for that one result instead of starting their own (the `@Cache` stampede guard).
 * A failure is shared by everyone who waited for it and then forgotten, never cached: the next
 * call runs the loader again.
 *
 * @example
 * const flights = new SingleFlight<Response>();
 * const answer = await flights.run(key, () => handler()); // 20 concurrent calls → handler runs once
 */
export class SingleFlight<T = unknown> {
  private readonly inFlight = new Map<string, Promise<T>>();

  /** Number of keys whose loader is running now. */
  get size(): number {
    return this.inFlight.size;
  }

  /** True while a loader for `key` is running. */
  has(key: string): boolean {
    return this.inFlight.has(key);
  }

  /** Runs `loader` unless one is already running for `key`; resolves to that one result. */
  run(key: string, loader: () => T | Promise<T>): Promise<T> {
    const running = this.inFlight.get(key);
    if (running) return running;
    const flight = new Promise<T>((resolve) => resolve(loader())).finally(() => {
      this.inFlight.delete(key);
    });
    this.inFlight.set(key, flight);
    return flight;
  }
}
