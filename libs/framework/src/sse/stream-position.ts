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

/**
 * The position a client sends back to resume a stream: the `Last-Event-ID` header (what
 * `EventSource` sends when it reconnects), `<stream id>.<number>`; a bare stream id reads the
 * stream from its start. `undefined` when the request starts a new stream.
 *
 * @throws BadRequestError (400) for a header that is no position of a toolkit stream.
 */
export function streamPosition(req: IncomingMessage): StreamPosition | undefined {
  const header = req.headers['last-event-id'];
  if (header === undefined || header === '') return undefined;
  const value = Array.isArray(header) ? header[0] : header;
  const position = POSITION.exec(value ?? '');
  if (position) return { id: position[1] ?? '', after: Number(position[2]) };
  const start = START.exec(value ?? '');
  if (start) return { id: start[1] ?? '', after: 0 };
  throw new BadRequestError(
    'Last-Event-ID must be the id of an event of this stream (<stream id>.<number>)',
  );
}
