/** Events per SSE response in the benchmark. */
export const SSE_EVENTS = 200;

/** Environment variable a suite sets to start a server streaming another number of events. */
export const SSE_EVENTS_VARIABLE = 'BENCH_SSE_EVENTS';

/** Events per response of this server process: {@link SSE_EVENTS} unless the suite said. */
function eventsOfThisServer(): number {
  const raw = process.env[SSE_EVENTS_VARIABLE];
  return raw === undefined ? SSE_EVENTS : Number(raw);
}

/**
 * The producer both SSE servers stream: `count` chunks of exactly 20 bytes, yielded by an async
 * generator the way an LLM stream arrives, so the only difference between them is the framework.
 */
export async function* produce(count = eventsOfThisServer()): AsyncGenerator<string> {
  for (let i = 0; i < count; i += 1) yield `chunk-${String(i).padStart(4, '0')}-abcdefghi`;
}
