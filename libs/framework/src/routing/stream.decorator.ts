import { STREAM_METADATA } from '../toolkit.constants.js';
import { takeOverResponse } from './take-over-response.js';

/** Options of {@link Stream}. */
export interface StreamOptions {
  /** Seconds of silence before a `: ping` comment keeps proxies from closing the stream. @default app.sse_heartbeat (15) */
  heartbeat?: number;
}

/**
 * Answers with Server-Sent Events. The method may be an `async *` generator, or return an
 * `AsyncIterable<string>` or an `Observable<string>`; each item becomes one
 * `event: message` event, flushed as soon as it is produced. Works with POST. When the client
 * goes away the generator's `finally` runs (or the Observable is unsubscribed) and the request's
 * AbortSignal (`@RequestSignal()`) fires, so an upstream LLM call stops too.
 *
 * @example
 * @Route('/chat/stream', { methods: ['POST'] })
 * @Stream()
 * async *chat(@Arg('message') message: string, @RequestSignal() signal: AbortSignal) {
 *   yield* await this.llm.chat(message, { stream: true, signal });
 * }
 */
export function Stream(options: StreamOptions = {}): MethodDecorator {
  return (target, key, descriptor) => {
    takeOverResponse(target, key, descriptor);
    Reflect.defineMetadata(STREAM_METADATA, options, descriptor.value as object);
    return descriptor;
  };
}
