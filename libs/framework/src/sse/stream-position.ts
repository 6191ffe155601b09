import type { IncomingMessage } from 'node:http';
import { BadRequestError } from '../http/http.errors.js';

/** Where a reconnecting client stopped reading a resumable stream. */
export interface StreamPosition {
  /** The stream's id (22 URL-safe characters). */
  readonly id: string;
  /** Number of the last event the client received (events are numbered from 1). */
  readonly after: number;
}

const POSITION = /^([A-Za-z0-9_-]{22})\.(\d{1,15})$/;
const START = /^([A-Za-z0-9_-]{22})$/;

/** The query parameter that may carry the position instead of the header. */
export const LAST_EVENT_ID_QUERY = 'lastEventId';

/**
 * What the id of a plain stream's closing id-only frame (`id: toolkit-end.<events sent>`) begins
 * with: the id an `EventSource` reconnects with once such a stream is over.
 */
export const STREAM_END_ID = 'toolkit-end';

/** `toolkit-end`, alone or with a `.<suffix>` (the events sent, or whatever a later version puts there). */
const END = /^toolkit-end(?:\.[A-Za-z0-9_-]{0,64})?$/;

/** A request's URL as Express keeps it once routed (`req.url` may be rewritten by a mount). */
type PositionedRequest = IncomingMessage & { originalUrl?: string };

/**
 * The position a client sends back to resume a stream: the `Last-Event-ID` header (what
 * `EventSource` sends when it reconnects) or, failing it, the `lastEventId` query parameter (what
 * a page that reloads can put in the URL of its new `EventSource`, which sends no header on its
 * first request): `<stream id>.<number>`; a bare stream id reads the stream from its start.
 * `undefined` when the request starts a new stream. The id that closes a plain stream is no
 * position: `@Stream()` routes answer it (204, see {@link reconnectsAfterEnd}) before they ask.
 *
 * @throws BadRequestError (400) for a value that is no position of a toolkit stream.
 */
export function streamPosition(req: PositionedRequest): StreamPosition | undefined {
  const value = positionText(req);
  if (value === undefined) return undefined;
  const position = POSITION.exec(value);
  if (position) return { id: position[1] ?? '', after: Number(position[2]) };
  const start = START.exec(value);
  if (start) return { id: start[1] ?? '', after: 0 };
  throw new BadRequestError(
    'Last-Event-ID must be the id of an event of this stream (<stream id>.<number>)',
  );
}

/**
 * True when the request is the reconnect of a client that read a `@Stream()` to its end: its
 * `Last-Event-ID` (or `?lastEventId=`) is the id of the id-only frame that closes a plain stream
 * (see {@link STREAM_END_ID}). Every `@Stream()` route answers it `204 No Content`, which stops
 * an `EventSource`, before anything else — the handler is not run again. Checked before
 * {@link streamPosition}, which does not take it for a position.
 */
export function reconnectsAfterEnd(req: PositionedRequest): boolean {
  const value = positionText(req);
  return value !== undefined && END.test(value);
}

/** True when the request names a position to resume from (well formed or not). */
export function resumesStream(req: PositionedRequest): boolean {
  return positionText(req) !== undefined;
}

/** The header's value, else the query parameter's; `undefined` when neither is given. */
function positionText(req: PositionedRequest): string | undefined {
  const header = req.headers['last-event-id'];
  const value = Array.isArray(header) ? header[0] : header;
  if (value !== undefined && value !== '') return value;
  const url = req.originalUrl ?? req.url ?? '';
  if (!url.includes(LAST_EVENT_ID_QUERY)) return undefined;
  const query = new URL(url, 'http://host').searchParams.get(LAST_EVENT_ID_QUERY);
  return query === null || query === '' ? undefined : query;
}
