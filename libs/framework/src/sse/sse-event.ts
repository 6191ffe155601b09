import { STREAM_END_ID } from './stream-position.js';

/**
 * Nest's `MessageEvent`, which a `@Stream()` source may emit as it would from `@Sse()`: `data`
 * (a string, or an object sent as JSON), the event `type`, its `id`, the client's reconnection
 * delay `retry` (ms) and a `comment`.
 */
export interface SseMessageEvent {
  data?: string | object;
  type?: string;
  id?: string | number;
  retry?: number;
  comment?: string;
}

/** Length of `event: message\ndata: `, where a message frame's data begins. */
const MESSAGE_PREFIX_LENGTH = 21;

const MESSAGE_EVENT_KEYS = new Set(['data', 'type', 'id', 'retry', 'comment']);

/**
 * True for a plain object made only of `MessageEvent` fields, with `data` or `comment`. Any other
 * object is sent as JSON in `data:`, so `{ data: [1, 2] }` is an event and `{ items: [1, 2] }` a
 * JSON payload.
 */
export function isMessageEvent(value: unknown): value is SseMessageEvent {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  if (Object.getPrototypeOf(value) !== Object.prototype && Object.getPrototypeOf(value) !== null)
    return false;
  const keys = Object.keys(value);
  return (
    keys.length > 0 &&
    keys.every((key) => MESSAGE_EVENT_KEYS.has(key)) &&
    ('data' in value || 'comment' in value)
  );
}

/**
 * Frames one event: `event: <name>` then one `data:` line per line of the payload, then a blank
 * line. CR, LF and CRLF all split lines, as the SSE standard reads them.
 */
export function formatEvent(data: string, event = 'message'): string {
  if (event === 'message') {
    // The common case, once per streamed token. The line break is looked for in the frame, past
    // its prefix, not in `data`: a string built from parts is then made flat once (the write
    // needs that anyway) instead of twice.
    const frame = `event: message\ndata: ${data}\n\n`;
    if (frame.indexOf('\n', MESSAGE_PREFIX_LENGTH) === frame.length - 2 && !frame.includes('\r')) {
      return frame;
    }
  } else if (hasLineBreak(event)) {
    throw new TypeError('An SSE event name cannot contain CR or LF');
  } else if (!hasLineBreak(data)) {
    return `event: ${event}\ndata: ${data}\n\n`;
  }
  return `event: ${event}\n${lines(data, 'data: ')}\n`;
}

/**
 * Turns what a stream emits into SSE frames, per response. A string is one `event: message`
 * (its lines as `data:` lines); a {@link SseMessageEvent} gives an SSE parser the same event as
 * Nest's `@Sse()` — including an `id:` counted from 1 when the event has none — but its `id:`
 * line comes after the `data:` lines (Nest writes it before them); any other value is sent as JSON.
 */
export class SseFramer {
  private lastId = 0;

  frame(chunk: unknown): string {
    if (typeof chunk === 'string') return formatEvent(chunk);
    if (Buffer.isBuffer(chunk)) return formatEvent(chunk.toString('utf8'));
    if (isMessageEvent(chunk)) return this.messageEvent(chunk);
    // Numbers, booleans and null are their own JSON; undefined and functions send nothing.
    return formatEvent(JSON.stringify(chunk) ?? '');
  }

  private messageEvent(event: SseMessageEvent): string {
    const commentOnly =
      event.comment !== undefined &&
      event.data === undefined &&
      event.type === undefined &&
      event.retry === undefined;
    let id = event.id;
    if ((id === undefined || id === null) && !commentOnly) id = String((this.lastId += 1));
    let frame = `event: ${event.type === undefined ? 'message' : oneLine(event.type)}\n`;
    if (commentOnly) frame = '';
    if (event.retry !== undefined && event.retry !== null)
      frame += `retry: ${oneLine(event.retry)}\n`;
    if (event.comment !== undefined && event.comment !== null) frame += lines(event.comment, ': ');
    if (event.data !== undefined && event.data !== null) {
      const data = typeof event.data === 'string' ? event.data : JSON.stringify(event.data);
      frame += lines(data, 'data: ');
    }
    // Last, after the data: a client that takes the id as soon as it reads its line (as
    // `@microsoft/fetch-event-source` does) must not hold the id of an event it has not got.
    if (id !== undefined && id !== null) frame += `id: ${oneLine(id)}\n`;
    return `${frame}\n`;
  }
}

/**
 * The frame that closes a plain stream: an id and nothing else. A WHATWG `EventSource` (browsers,
 * the `eventsource` package) takes the id as its last event id without dispatching any event, so
 * its automatic reconnect after the end carries `Last-Event-ID: toolkit-end.<events>`, which every
 * `@Stream()` route answers `204` (see `reconnectsAfterEnd`) instead of running the handler
 * again. Parsers that dispatch only events with data (`eventsource-parser`, toolkit's
 * `SseParser`) skip it. `events` is the number of events the stream sent, for whoever reads it.
 */
export function endFrame(events: number): string {
  return `id: ${STREAM_END_ID}.${events}\n\n`;
}

function lines(text: string, prefix: string): string {
  let out = '';
  for (const line of text.split(/\r\n|\r|\n/)) out += `${prefix}${line}\n`;
  return out;
}

/** Field values cannot hold a line break (it would end the field): dropped, as Nest does. */
function oneLine(value: unknown): string {
  return String(value).replace(/[\r\n]/g, '');
}

function hasLineBreak(text: string): boolean {
  return text.includes('\n') || text.includes('\r');
}
