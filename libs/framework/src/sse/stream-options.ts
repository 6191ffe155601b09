import type { IncomingMessage } from 'node:http';

/**
 * Options of `@Stream()` (and `stream: {...}` on `app.route`).
 *
 * How a stream ends for an `EventSource`, which reconnects on its own (after `retry` ms, 3 s by
 * default) whenever a response ends: a plain (not resumable) `'sse'` stream answering a GET
 * closes with an id-only frame, `id: toolkit-end.<events sent>`, once it is over — cleanly, or
 * after the `event: error` of a failure (a reconnect would otherwise be a blind retry, every few
 * seconds, of a failed model call; a page that wants to retry opens a new `EventSource`). The
 * `EventSource` takes that id as its last event id without dispatching an event, and its
 * reconnect carries it (`Last-Event-ID`, or `?lastEventId=`): every `@Stream()` route answers
 * such a request `204 No Content` before its interceptors and handler run, nor is it counted by
 * `@RateLimit()`, and the `EventSource` stops. No such frame when the client went, when shutdown
 * stopped the stream (a reconnect then runs it again, on a live instance), on POST (no
 * `EventSource` sends one; fetch-based clients do not reconnect after a clean end), nor for
 * `resumable` streams (a reconnect reads their log, 204 once over) or `'ui-message'`. Parsers
 * that dispatch only events with data skip it; `@microsoft/fetch-event-source` hands its
 * `onmessage` one message with empty `data`, as it does for each `: ping`.
 *
 * @example
 * @Route('/chat/stream') // GET: an EventSource reads it once, then stops
 * @Stream({ heartbeat: 10 })
 * async *chat(@Arg('message') message: string, @RequestSignal() signal: AbortSignal) {
 *   yield* await this.llm.chat(message, { stream: true, signal });
 * }
 */
export interface StreamOptions {
  /**
   * Heartbeat period in seconds: after one to two periods of silence a `: ping` comment keeps
   * proxies from closing the stream (and sends the headers, when the first chunk is that slow).
   * 0 disables.
   * @default config `app.sse_heartbeat` (15)
   */
  heartbeat?: number;
  /**
   * Largest amount of an Observable's output (bytes of formatted events) that may wait for a
   * client that is not reading. An Observable cannot be paused, so past this bound the stream
   * ends with `event: error` and a logged error instead of growing the heap. Async iterables
   * and generators are paused instead and never hit it. 0 or `Infinity` lifts the bound.
   * @default 4194304 (4 MiB)
   */
  maxPendingBytes?: number;
  /**
   * Makes the stream survive its connection: the producer runs to its end (or its `ttl`, in
   * seconds, or a cancel) while a client reads it, and for `limits.detached_grace` seconds
   * (30) once none does (then it stops as if cancelled), every event carries an `id:`
   * (`<stream id>.<number>`), and a client that reconnects with that id in `Last-Event-ID` — to
   * any process sharing the Redis memory or cache backend — gets the events it missed, then the
   * rest live. The stream id is also in the `X-Stream-Id` response header; `DELETE
   * /streams/:id` (served by `App`; `ResumableStreamsController` elsewhere) cancels it. The
   * handler's signal aborts on cancel, time to live, shutdown and the detached grace, not when
   * a client goes. At most `limits.streams_per_session` / `streams_per_address` run at once
   * (429 past them).
   * @default false
   */
  resumable?: boolean | ResumableOptions;
  /**
   * What the stream speaks. `'sse'`: one SSE event per chunk (strings as `event: message`, Nest
   * `MessageEvent`s framed as `@Sse()` frames them, other values as JSON). `'ui-message'`: the
   * AI SDK's UI message stream protocol (v1), which `useChat`, `DefaultChatTransport` and
   * `readUIMessageStream` read: the `x-vercel-ai-ui-message-stream: v1` header, `data: <json>`
   * events and a closing `data: [DONE]`. The handler yields strings (text deltas of one text
   * part), `llm.streamEvents()` events (text, tool parts with their input and output, and a
   * `finish` whose `messageMetadata` holds the usage and step count), custom `{ type:
   * 'data-<name>', data }` parts and any chunk of the protocol itself, sent as they are. A
   * failure after the stream began ends it with an `error` chunk. With `resumable`, the chunks
   * are recorded, and a request whose body has the AI SDK's chat `id` makes the stream that
   * chat's running answer: `ResumableStreams.resumeChat(id, owner)` returns it for the resume
   * route `useChat({ resume: true })` calls (`GET {api}/{id}/stream`), and
   * `ResumableStreams.cancelChat(id, owner)` stops it.
   * @default 'sse'
   */
  format?: 'sse' | 'ui-message';
}

/** Options of a resumable stream (`@Stream({ resumable: { ... } })`). */
export interface ResumableOptions {
  /**
   * Seconds the producer may run, and its events stay resumable after the last one.
   * @default 600
   */
  ttl?: number;
  /**
   * Who the stream belongs to: a request whose owner differs from the one that started the
   * stream cannot read it (404), even with its id. `'session'`: the caller's `@Session()` (the
   * user an authentication guard set, else the session cookie), which `DELETE /streams/:id`
   * also honours; or a function, e.g. `(req) => req.user?.id`, whose streams are cancelled
   * through `ResumableStreams.cancel(id, owner)`. The owner is also what
   * `limits.streams_per_session` and `limits.detached_per_session` count per.
   * @default undefined (the stream id alone gives access)
   */
  owner?: 'session' | ((req: IncomingMessage) => string | undefined);
}

/** {@link StreamOptions.maxPendingBytes} when none is given. */
export const DEFAULT_MAX_PENDING_BYTES = 4 * 1024 * 1024;
