import type { ServerResponse } from 'node:http';

/** What {@link meterResponse} has seen of an answer so far. */
export interface ResponseMeter {
  /** Body bytes written. */
  bytes: number;
  /** `performance.now()` of the first body byte, if any was written. */
  firstByteAt?: number;
}

type Write = (chunk: unknown, ...rest: unknown[]) => boolean;
type End = (...args: unknown[]) => ServerResponse;

function sizeOf(chunk: unknown, encoding: unknown): number {
  if (typeof chunk === 'string') {
    return Buffer.byteLength(
      chunk,
      typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8',
    );
  }
  return chunk instanceof Uint8Array ? chunk.byteLength : 0;
}

/**
 * Counts the body bytes of `res` as they are written. Node's response keeps no such count and
 * emits no event per write, so its own `write` and `end` are wrapped, on this response only (the
 * way compression middleware wraps them), on either platform and for streams written directly.
 */
export function meterResponse(res: ServerResponse): ResponseMeter {
  const meter: ResponseMeter = { bytes: 0 };
  // Some responses' `end` calls their own `write` (light-my-request's does): counted once.
  let ending = false;
  const count = (chunk: unknown, encoding: unknown): void => {
    if (ending) return;
    const size = sizeOf(chunk, encoding);
    if (size === 0) return;
    meter.bytes += size;
    meter.firstByteAt ??= performance.now();
  };
  const write = res.write.bind(res) as unknown as Write;
  const end = res.end.bind(res) as unknown as End;
  (res as unknown as { write: Write }).write = (chunk, ...rest) => {
    count(chunk, rest[0]);
    return write(chunk, ...rest);
  };
  (res as unknown as { end: End }).end = (...args) => {
    if (typeof args[0] !== 'function') count(args[0], args[1]);
    ending = true;
    try {
      return end(...args);
    } finally {
      ending = false;
    }
  };
  return meter;
}
