import { Res, UseInterceptors } from '@nestjs/common';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum.js';
import { documentStream } from '../openapi/swagger-bridge/route-docs.js';
import { StreamInterceptor } from '../sse/stream.interceptor.js';
import type { StreamOptions } from '../sse/stream-options.js';
import { STREAM_METADATA } from '../toolkit.constants.js';
import { CacheInterceptor } from '../cache/cache.interceptor.js';
import { assertToolkitInterceptorsOuter } from './interceptor-order.js';
import { appendHiddenParam, hasParamOfType } from './route-params.decorator.js';

/**
 * Answers with Server-Sent Events. The method may be an `async *` generator, or return an
 * `AsyncIterable` or an `Observable`, of strings (one `event: message` each), Nest
 * `MessageEvent`s (`{ data, type?, id?, retry? }`, framed as Nest's `@Sse()` frames them) or
 * other values (sent as JSON). Each event is flushed in the turn of the event loop that produced
 * it (the events of one turn in one write); a generator is paused while the client reads slowly.
 * Works with POST. When the client goes away the generator's `finally` runs (or the Observable is
 * unsubscribed) and the request's AbortSignal (`@RequestSignal()`, or Nest's `@SseSignal()`)
 * fires, so an upstream LLM call stops too. An `EventSource` that read a GET stream to its end
 * does not run it again when it reconnects: it gets `204` (see `StreamOptions`).
 *
 * It attaches its own interceptor to the method, outside the method's own interceptors, which
 * run inside it and see the raw chunks: write `@Stream()` below any `@UseInterceptors()`, nearest
 * the method (Nest runs the interceptors of the decorators nearest the method outermost; the
 * other order is a `TypeError` when the class is defined). With `@Cache` either order works.
 * The interceptor writes the response itself, as Nest's `@Sse()` does, so the method also gets a
 * hidden `@Res()` parameter (it never sees it): Nest then prepares no reply of its own, and does
 * not end the handler's generator when the first client goes (a resumable stream outlives it).
 * With `@nestjs/swagger` installed, its 200 is documented as
 * `text/event-stream` in the app's swagger document.
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
    Reflect.defineMetadata(STREAM_METADATA, options, descriptor.value as object);
    assertToolkitInterceptorsOuter('@Stream()', descriptor.value as object, [CacheInterceptor]);
    UseInterceptors(StreamInterceptor)(target, key, descriptor);
    if (!hasParamOfType(target, key, RouteParamtypes.RESPONSE)) {
      appendHiddenParam(target, key, descriptor, Res());
    }
    documentStream({ target, key, descriptor });
    return descriptor;
  };
}

export type { StreamOptions } from '../sse/stream-options.js';
