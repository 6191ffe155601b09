import type { ServerResponse } from 'node:http';

/** Headers every SSE answer carries; `no-transform` also keeps compression middleware away. */
export const SSE_HEADERS: Readonly<Record<string, string>> = {
  'Content-Type': 'text/event-stream; charset=utf-8',
  'Cache-Control': 'no-cache, no-transform',
  Connection: 'keep-alive',
  'X-Accel-Buffering': 'no',
};

/**
 * Frames one event: `event: <name>` then one `data:` line per line of the payload, then a blank
 * line. CR, LF and CRLF all split lines, as the SSE standard reads them.
 */
export function formatEvent(data: string, event = 'message'): string {
  if (event !== 'message' && hasLineBreak(event)) {
    throw new TypeError('An SSE event name cannot contain CR or LF');
  }
  // The common case (one line) skips the regular expression: this runs once per streamed token.
  if (!hasLineBreak(data)) return `event: ${event}\ndata: ${data}\n\n`;
  let frame = `event: ${event}\n`;
  for (const line of data.split(/\r\n|\r|\n/)) frame += `data: ${line}\n`;
  return `${frame}\n`;
}

function hasLineBreak(text: string): boolean {
  return text.includes('\n') || text.includes('\r');
}

/**
 * Writes Server-Sent Events to one response: sets the headers once, flushes each event as it is
 * written, waits for `drain` when the client reads slowly (so memory stays bounded), and sends a
 * `: ping` comment after `heartbeatMs` of silence.
 */
export class SseWriter {
  private heartbeat?: NodeJS.Timeout;
  private opened = false;

  constructor(
    private readonly res: ServerResponse,
    private readonly heartbeatMs: number,
  ) {}

  /** True once the client has gone or the stream has ended. */
  get closed(): boolean {
    return this.res.destroyed || this.res.writableEnded;
  }

  /**
   * Sets status 200 and the SSE headers if not done yet. They go out with the first write
   * (an event, a ping, or the end), in the same packet, instead of costing a write of their own.
   */
  open(extraHeaders: Record<string, string> = {}): void {
    if (this.opened) return;
    this.opened = true;
    for (const [name, value] of Object.entries({ ...SSE_HEADERS, ...extraHeaders })) {
      this.res.setHeader(name, value);
    }
    this.res.statusCode = 200;
    this.armHeartbeat();
  }

  /** Writes one event; resolves when the client can take more. */
  async send(data: string, event = 'message'): Promise<void> {
    await this.write(formatEvent(data, event));
  }

  /**
   * Writes one event at once. Returns a promise only when the client is behind (resolved on
   * `drain` or `close`), so a fast stream costs no extra promise per event.
   */
  sendNow(data: string, event = 'message'): Promise<void> | undefined {
    return this.write(formatEvent(data, event));
  }

  /** Writes a comment line (`: text`), which clients ignore. */
  async comment(text: string): Promise<void> {
    await this.write(`: ${text}\n\n`);
  }

  /** Ends the stream and stops the heartbeat. */
  end(): void {
    this.stopHeartbeat();
    if (!this.closed) this.res.end();
  }

  /** Stops the heartbeat without ending (the client is gone). */
  stopHeartbeat(): void {
    if (this.heartbeat) clearTimeout(this.heartbeat);
    this.heartbeat = undefined;
  }

  private write(frame: string): Promise<void> | undefined {
    if (this.closed) return undefined;
    this.open();
    this.armHeartbeat();
    if (this.res.write(frame)) return undefined;
    return this.writable();
  }

  /** Resolves on `drain` or `close`, removing both listeners (a slow client hits this often). */
  private writable(): Promise<void> {
    return new Promise((resolve) => {
      const done = (): void => {
        this.res.off('drain', done);
        this.res.off('close', done);
        resolve();
      };
      this.res.on('drain', done);
      this.res.on('close', done);
    });
  }

  private armHeartbeat(): void {
    if (this.heartbeatMs <= 0 || this.closed) return;
    // Restarting the one timer is far cheaper than a new timer per event.
    if (this.heartbeat) {
      this.heartbeat.refresh();
      return;
    }
    this.heartbeat = setTimeout(() => {
      this.heartbeat = undefined;
      void this.comment('ping');
    }, this.heartbeatMs);
    this.heartbeat.unref();
  }
}
