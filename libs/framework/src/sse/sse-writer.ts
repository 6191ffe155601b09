import type { ServerResponse } from 'node:http';

/** Headers every SSE answer carries; `no-transform` also keeps compression middleware away. */
export const SSE_HEADERS: Readonly<Record<string, string>> = {
  'Content-Type': 'text/event-stream; charset=utf-8',
  'Cache-Control': 'no-cache, no-transform',
  Connection: 'keep-alive',
  'X-Accel-Buffering': 'no',
};

/**
 * Writes Server-Sent Events to one response: sets the headers once, flushes each frame as it is
 * written, reports when the client reads slowly (so the producer can wait and memory stays
 * bounded), and sends a `: ping` comment after `heartbeatMs` of silence.
 */
export class SseWriter {
  private heartbeat?: NodeJS.Timeout;
  private opened = false;
  private readonly waits = new Set<() => void>();

  constructor(
    private readonly res: ServerResponse,
    private readonly heartbeatMs: number,
  ) {}

  /** True once the client has gone or the stream has ended. */
  get closed(): boolean {
    return this.res.destroyed || this.res.writableEnded;
  }

  /** True once the status and headers are set (they leave with the first write). */
  get started(): boolean {
    return this.opened;
  }

  /**
   * Sets status 200 and the SSE headers if not done yet. They go out with the first write
   * (an event, a ping, or the end), in the same packet, instead of costing a write of their own.
   */
  open(): void {
    if (this.opened) return;
    this.opened = true;
    for (const [name, value] of Object.entries(SSE_HEADERS)) this.res.setHeader(name, value);
    this.res.statusCode = 200;
    this.armHeartbeat();
  }

  /**
   * Writes one frame at once. Returns a promise only when the client is behind (resolved on
   * `drain` or `close`), so a fast stream costs no extra promise per event.
   */
  write(frame: string): Promise<void> | undefined {
    if (this.closed) return undefined;
    this.open();
    this.armHeartbeat();
    if (this.res.write(frame)) return undefined;
    return this.writable();
  }

  /** Writes a comment line (`: text`), which clients ignore. */
  comment(text: string): Promise<void> | undefined {
    return this.write(`: ${text}\n\n`);
  }

  /** Ends the stream and stops the heartbeat. */
  end(): void {
    this.stopHeartbeat();
    if (this.closed) return;
    this.open();
    this.res.end();
  }

  /** Stops the heartbeat without ending (the client is gone). */
  stopHeartbeat(): void {
    if (this.heartbeat) clearTimeout(this.heartbeat);
    this.heartbeat = undefined;
  }

  /**
   * Stops writing for good: no heartbeat, and whoever waits for a slow client to read is
   * released now (the client may never read again).
   */
  detach(): void {
    this.stopHeartbeat();
    for (const release of [...this.waits]) release();
  }

  /** Resolves on `drain`, `close` or {@link detach}, removing its listeners (a slow client hits this often). */
  private writable(): Promise<void> {
    return new Promise((resolve) => {
      const done = (): void => {
        this.res.off('drain', done);
        this.res.off('close', done);
        this.waits.delete(done);
        resolve();
      };
      this.waits.add(done);
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
