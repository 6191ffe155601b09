import type { ServerResponse } from 'node:http';

/** Headers every SSE answer carries; `no-transform` also keeps compression middleware away. */
export const SSE_HEADERS: Readonly<Record<string, string>> = {
  'Content-Type': 'text/event-stream; charset=utf-8',
  'Cache-Control': 'no-cache, no-transform',
  Connection: 'keep-alive',
  'X-Accel-Buffering': 'no',
};
const HEADER_ENTRIES = Object.entries(SSE_HEADERS);
/** The same headers as `writeHead` takes them: name, value, name, value... */
const HEADER_LIST = HEADER_ENTRIES.flat();

/**
 * Writes Server-Sent Events to one response: sets the headers once, flushes each frame as it is
 * written, reports when the client reads slowly (so the producer can wait and memory stays
 * bounded), and sends a `: ping` comment when a stream stays silent (see {@link armHeartbeat}).
 */
export class SseWriter {
  private heartbeat?: NodeJS.Timeout;
  /** Writes so far: the heartbeat pings only when none happened for a whole period. */
  private writes = 0;
  private writesAtLastBeat = 0;
  private opened = false;
  private ended = false;
  /** Who waits for a slow client; made on the first wait (most streams never wait). */
  private waits?: Set<() => void>;

  constructor(
    private readonly res: ServerResponse,
    private readonly heartbeatMs: number,
  ) {}

  /** True once the client has gone or the stream has ended. */
  get closed(): boolean {
    return this.ended || this.res.destroyed;
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
    if (this.res.getHeaderNames().length === 0) {
      // Nothing set before (the usual case on Fastify): one call stores status and headers.
      this.res.writeHead(200, HEADER_LIST);
    } else {
      for (const [name, value] of HEADER_ENTRIES) this.res.setHeader(name, value);
      this.res.statusCode = 200;
    }
    if (!this.heartbeat) this.armHeartbeat();
  }

  /**
   * Starts the heartbeat before anything is written: a stream silent for a whole period then
   * sends a ping, and with it its headers (so a slow first chunk does not leave the client
   * without an answer). One timer serves the whole stream.
   */
  startHeartbeat(): void {
    if (!this.heartbeat) this.armHeartbeat();
  }

  /**
   * Writes one frame at once. Returns a promise only when the client is behind (resolved on
   * `drain` or `close`), so a fast stream costs no extra promise per event.
   */
  write(frame: string): Promise<void> | undefined {
    if (this.ended) return undefined;
    if (!this.opened) this.open();
    this.writes += 1;
    if (this.res.write(frame)) return undefined;
    return this.writable();
  }

  /** Writes a comment line (`: text`), which clients ignore. */
  comment(text: string): Promise<void> | undefined {
    return this.write(`: ${text}\n\n`);
  }

  /** Ends the stream and stops the heartbeat. */
  end(): void {
    if (this.ended) return;
    if (!this.opened && !this.res.destroyed) this.open();
    this.ended = true;
    this.stopHeartbeat();
    if (!this.res.destroyed && !this.res.writableEnded) this.res.end();
  }

  /** The client went away: nothing more can be written. */
  gone(): void {
    this.ended = true;
    this.detach();
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
    if (this.waits) for (const release of [...this.waits]) release();
  }

  /** Resolves on `drain`, `close` or {@link detach}, removing its listeners (a slow client hits this often). */
  private writable(): Promise<void> {
    return new Promise((resolve) => {
      const done = (): void => {
        this.res.off('drain', done);
        this.res.off('close', done);
        this.waits?.delete(done);
        resolve();
      };
      (this.waits ??= new Set()).add(done);
      this.res.on('drain', done);
      this.res.on('close', done);
    });
  }

  /**
   * One timer for the whole stream, firing every `heartbeatMs`: it pings when no event went out
   * since it last fired, so a ping follows one to two periods of silence and a busy stream costs
   * no timer work per event.
   */
  private armHeartbeat(): void {
    if (this.heartbeatMs <= 0 || this.closed) return;
    this.heartbeat = setTimeout(() => {
      this.heartbeat = undefined;
      if (this.writes === this.writesAtLastBeat) void this.comment('ping');
      this.writesAtLastBeat = this.writes;
      this.armHeartbeat();
    }, this.heartbeatMs);
    this.heartbeat.unref();
  }
}
