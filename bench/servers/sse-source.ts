import { setImmediate as nextTurn } from 'node:timers/promises';

/** Events per SSE response in the benchmark. */
export const SSE_EVENTS = 200;

/** Environment variable a suite sets to start a server streaming another number of events. */
export const SSE_EVENTS_VARIABLE = 'BENCH_SSE_EVENTS';

/**
 * Environment variable a suite sets (to `1`) to start a server whose producer yields each event in
 * a turn of the event loop of its own, as an LLM stream yields a token per network read.
 */
export const SSE_SPACED_VARIABLE = 'BENCH_SSE_SPACED';

/** Events per response of this server process: {@link SSE_EVENTS} unless the suite said. */
function eventsOfThisServer(): number {
  const raw = process.env[SSE_EVENTS_VARIABLE];
  return raw === undefined ? SSE_EVENTS : Number(raw);
}

/** True when this server's producer waits for the next turn of the event loop before each event. */
const SPACED = process.env[SSE_SPACED_VARIABLE] === '1';

/**
 * The producer both SSE servers stream: `count` chunks of exactly 20 bytes, yielded by an async
 * generator the way an LLM stream arrives, so the only difference between them is the framework.
 * By default it yields them without waiting for I/O (as an SDK yields the tokens of one network
 * read); spaced ({@link SSE_SPACED_VARIABLE}), each after a turn of the event loop.
 */
export async function* produce(count = eventsOfThisServer()): AsyncGenerator<string> {
  for (let i = 0; i < count; i += 1) {
    if (SPACED) await nextTurn();
    yield `chunk-${String(i).padStart(4, '0')}-abcdefghi`;
  }
}
