/** Events per SSE response in the benchmark. */
export const SSE_EVENTS = 200;

/**
 * The producer both SSE servers stream: `count` chunks of exactly 20 bytes, yielded by an async
 * generator the way an LLM stream arrives, so the only difference between them is the framework.
 */
export async function* produce(count = SSE_EVENTS): AsyncGenerator<string> {
  for (let i = 0; i < count; i += 1) yield `chunk-${String(i).padStart(4, '0')}-abcdefghi`;
}
