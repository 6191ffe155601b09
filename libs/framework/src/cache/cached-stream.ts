import type { TraceSpanOptions } from '../../../providers/src/index.js';
import { CACHE_ATTRIBUTE, CACHE_SPAN, startSpan } from '../../../providers/src/internal.js';

/**
 * A recorded stream served again, as `@Cache` answers a hit on a streaming route (sync iteration
 * suffices: the chunks are all in hand). While tracing is on it is one `toolkit.cache.replay`
 * span, started with the request's span as its parent and ended after the last chunk or when
 * the client leaves, with the chunks served (`toolkit.cache.chunks`).
 *
 * @example
 * return replayStream(hit.chunks, CACHE_SPAN_OPTIONS.redis);
 */
export function replayStream(
  chunks: readonly unknown[],
  spanOptions: TraceSpanOptions,
): AsyncIterable<unknown> {
  const span = startSpan(CACHE_SPAN.replay, spanOptions);
  let served = 0;
  const end = (): void => {
    if (span.recording) span.setAttributes({ [CACHE_ATTRIBUTE.chunks]: served });
    span.end();
  };
  return {
    [Symbol.asyncIterator]: () => {
      const iterator = chunks[Symbol.iterator]();
      return {
        next: () => {
          const result = iterator.next();
          if (result.done === true) end();
          else served += 1;
          return Promise.resolve(result);
        },
        return: () => {
          end();
          return Promise.resolve({ done: true, value: undefined });
        },
      };
    },
  };
}
