import type { TraceSpanOptions } from '../telemetry/tracer.interface.js';
import type { StreamLog } from './stream-log.interface.js';

/**
 * Names of the spans of resumable-stream log operations: once per stream or per request, never
 * per appended chunk (a long stream's appends would drown the trace).
 */
export const STREAM_LOG_SPAN = {
  /** `StreamLog.create`: a resumable stream opened. */
  create: 'toolkit.stream_log.create',
  /** A reconnect's first read from its `Last-Event-ID` position (is the stream over, what is left). */
  resume: 'toolkit.stream_log.resume',
  /** `StreamLog.cancel`: a stop asked for, in whatever process the writer runs. */
  cancel: 'toolkit.stream_log.cancel',
} as const;

/** Attribute names of stream-log spans. Never the stream id: it is what lets a client read it. */
export const STREAM_LOG_ATTRIBUTE = {
  /** `memory` or `redis`. */
  backend: 'toolkit.stream_log.backend',
  /** `resume`, `cancel`: whether the stream was there (unknown or expired otherwise). */
  found: 'toolkit.stream_log.found',
  /** `resume`: the position the client resumes after, and the entries read from it. */
  position: 'toolkit.stream_log.position',
  entries: 'toolkit.stream_log.entries',
} as const;

function options(backend: StreamLog['backend']): TraceSpanOptions {
  return Object.freeze({
    kind: 'internal',
    attributes: Object.freeze({ [STREAM_LOG_ATTRIBUTE.backend]: backend }),
  });
}

/**
 * The start options of each backend's stream-log spans, built once so an operation allocates
 * nothing for them.
 *
 * @example
 * await traced(STREAM_LOG_SPAN.create, STREAM_LOG_SPAN_OPTIONS.redis, () => create());
 */
export const STREAM_LOG_SPAN_OPTIONS: Readonly<Record<StreamLog['backend'], TraceSpanOptions>> =
  Object.freeze({ memory: options('memory'), redis: options('redis') });
