import { describe, expect, it } from '@jest/globals';
import { SingleFlight } from './single-flight.js';

/** A promise the test settles by hand. */
function gate<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe('SingleFlight', () => {
  it('runs the loader once for 20 concurrent identical calls and shares the result', async () => {
    const flights = new SingleFlight<{ n: number }>();
    const release = gate<void>();
    let runs = 0;
    const loader = async () => {
      runs += 1;
      await release.promise;
      return { n: runs };
    };
    const calls = Array.from({ length: 20 }, () => flights.run('k', loader));
    expect(flights.has('k')).toBe(true);
    release.resolve();
    const results = await Promise.all(calls);
    expect(runs).toBe(1);
    expect(new Set(results).size).toBe(1);
    expect(results[0]).toEqual({ n: 1 });
    expect(flights.size).toBe(0);
  });

  it('keeps different keys apart', async () => {
    const flights = new SingleFlight<string>();
    const seen: string[] = [];
    const results = await Promise.all(
      ['a', 'b', 'a'].map((key) =>
        flights.run(key, () => {
          seen.push(key);
          return Promise.resolve(key.toUpperCase());
        }),
      ),
    );
    expect(results).toEqual(['A', 'B', 'A']);
    expect(seen).toEqual(['a', 'b']);
  });

  it('shares a failure with every waiter, then forgets it', async () => {
    const flights = new SingleFlight<string>();
    const release = gate<string>();
    let runs = 0;
    const failing = () => {
      runs += 1;
      return release.promise;
    };
    const calls = Array.from({ length: 5 }, () => flights.run('k', failing));
    release.reject(new Error('boom'));
    const settled = await Promise.allSettled(calls);
    expect(
      settled.every((s) => s.status === 'rejected' && (s.reason as Error).message === 'boom'),
    ).toBe(true);
    expect(runs).toBe(1);
    expect(await flights.run('k', () => 'fresh')).toBe('fresh');
  });

  it('turns a loader that throws synchronously into a rejection', async () => {
    const flights = new SingleFlight<number>();
    await expect(
      flights.run('k', () => {
        throw new Error('sync');
      }),
    ).rejects.toThrow('sync');
    expect(flights.size).toBe(0);
  });
});
