import { once } from 'node:events';
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
  if (/[\r\n]/.test(event)) throw new TypeError('An SSE event name cannot contain CR or LF');
  const lines = data.split(/\r\n|\r|\n/);
  let frame = `event: ${event}\n`;
  for (const line of lines) frame += `data: ${line}\n`;
  return `${frame}\n`;
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

  /** Sends the status line and headers (status 200) if not sent yet. */
  open(extraHeaders: Record<string, string> = {}): void {
    if (this.opened) return;
    this.opened = true;
    for (const [name, value] of Object.entries({ ...SSE_HEADERS, ...extraHeaders })) {
      this.res.setHeader(name, value);
    }
    this.res.statusCode = 200;
    this.res.flushHeaders();
    this.armHeartbeat();
  }

  /** Writes one event; resolves when the client can take more. */
  async send(data: string, event = 'message'): Promise<void> {
    await this.write(formatEvent(data, event));
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

  private async write(frame: string): Promise<void> {
    if (this.closed) return;
    this.open();
    this.armHeartbeat();
    if (!this.res.write(frame)) {
      await Promise.race([once(this.res, 'drain'), once(this.res, 'close')]);
    }
  }

  private armHeartbeat(): void {
    this.stopHeartbeat();
    if (this.heartbeatMs <= 0 || this.closed) return;
    this.heartbeat = setTimeout(() => void this.comment('ping'), this.heartbeatMs);
    this.heartbeat.unref();
  }
}
