/** One parsed Server-Sent Event. */
export interface SseEvent {
  /** The event name; `message` when the stream gave none. */
  event: string;
  /** The data lines joined with `\n`. */
  data: string;
  /** The last `id:` field seen (it carries over to later events, as the standard says). */
  id?: string;
  /** The `retry:` field of this event's block, when it had one (reconnection delay, ms). */
  retry?: number;
}

/**
 * Incremental SSE parser (the WHATWG event-stream rules): feed it bytes or text in any chunking
 * and it returns the same events, because it only acts on complete lines. Comments (`: ping`) and
 * unknown fields are ignored.
 *
 * @example
 * const parser = new SseParser();
 * const events = [...parser.feed('event: message\ndata: a\n'), ...parser.feed('\n')];
 */
export class SseParser {
  private buffer = '';
  private readonly decoder = new TextDecoder();
  private data: string[] = [];
  private event = '';
  private id?: string;
  private retry?: number;

  /** Consumes a chunk and returns the events it completed. */
  feed(chunk: string | Uint8Array): SseEvent[] {
    this.buffer += typeof chunk === 'string' ? chunk : this.decoder.decode(chunk, { stream: true });
    const events: SseEvent[] = [];
    for (;;) {
      const match = /\r\n|\r|\n/.exec(this.buffer);
      // A lone trailing CR may be the first half of CRLF: wait for the next byte.
      if (!match || (match[0] === '\r' && match.index === this.buffer.length - 1)) break;
      const line = this.buffer.slice(0, match.index);
      this.buffer = this.buffer.slice(match.index + match[0].length);
      const event = this.line(line);
      if (event) events.push(event);
    }
    return events;
  }

  /** Flushes a final event that was not followed by a blank line. */
  end(): SseEvent[] {
    const tail = this.buffer ? this.feed('\n') : [];
    const last = this.line('');
    return last ? [...tail, last] : tail;
  }

  private line(line: string): SseEvent | undefined {
    if (line === '') {
      const retry = this.retry;
      this.retry = undefined;
      if (this.data.length === 0) {
        this.event = '';
        return undefined;
      }
      const event: SseEvent = { event: this.event || 'message', data: this.data.join('\n') };
      if (this.id !== undefined) event.id = this.id;
      if (retry !== undefined) event.retry = retry;
      this.data = [];
      this.event = '';
      return event;
    }
    if (line.startsWith(':')) return undefined;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') this.data.push(value);
    else if (field === 'event') this.event = value;
    else if (field === 'id') this.id = value;
    else if (field === 'retry' && /^\d+$/.test(value)) this.retry = Number(value);
    return undefined;
  }
}

/**
 * Parses a whole SSE body at once.
 *
 * @example
 * parseSse('data: a\n\nevent: error\ndata: {"error":"x"}\n\n');
 * // [{ event: 'message', data: 'a' }, { event: 'error', data: '{"error":"x"}' }]
 */
export function parseSse(body: string | Uint8Array): SseEvent[] {
  const parser = new SseParser();
  return [...parser.feed(body), ...parser.end()];
}
