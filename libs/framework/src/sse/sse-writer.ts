import type { ServerResponse } from 'node:http';
import { heartbeatClock, type HeartbeatClock, type HeartbeatMember } from './heartbeat-clock.js';

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
 * Frames waiting for the end of the tick are written at once past this many characters (Node's
 * default high-water mark), so a producer that never yields to the event loop stays bounded.
 */
const BATCH_LIMIT = 16 * 1024;

/**
 * Writes Server-Sent Events to one response: sets the headers once, sends each frame in the tick
 * it was written, reports when the client reads slowly (so the producer can wait and memory stays
 * bounded), and sends a `: ping` comment when a stream stays silent (see {@link beat}).
 *
 * Frames written in the same tick leave in one write, at the end of that tick (see
 * {@link write}): Node's HTTP response holds its socket corked until the end of the tick anyway,
 * so nothing leaves later than it would have, but a burst of tokens (an SDK stream yielding
 * several from one network read) costs one chunk on the wire instead of one per event.
 */
export class SseWriter implements HeartbeatMember {
  /** The clock this stream's heartbeat ticks on, while it has joined one. */
  private clock?: HeartbeatClock;
  /** No tick yet since joining: the first one may come at once, before a whole period. */
  private firstBeat = true;
  /** Writes so far: the heartbeat pings only when none happened for a whole period. */
  private writes = 0;
  private writesAtLastBeat = 0;
  private opened = false;
  private ended = false;
  /** Who waits for a slow client; made on the first wait (most streams never wait). */
  private waits?: Set<() => void>;
  /** Frames written in this tick and not yet handed to the response. */
  private batch = '';
  /** A `process.nextTick` flush of the batch is queued. */
  private flushQueued = false;

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
    this.startHeartbeat();
  }

  /**
   * Starts the heartbeat before anything is written: a stream silent for a whole period then
   * sends a ping, and with it its headers (so a slow first chunk does not leave the client
   * without an answer). The stream joins the process's clock for its period (see
   * {@link HeartbeatClock}) rather than arming a timer of its own.
   */
  startHeartbeat(): void {
    if (this.clock || this.heartbeatMs <= 0 || this.closed) return;
    this.clock = heartbeatClock(this.heartbeatMs);
    this.clock.join(this);
  }

  /**
   * Writes one frame. It leaves with the others written in the same tick, in one write at the end
   * of the tick (or at once past {@link BATCH_LIMIT} characters, or on {@link end}). Returns a
   * promise only when the client is behind (resolved on `drain` or `close`), so a fast stream
   * costs no extra promise per event.
   */
  write(frame: string): Promise<void> | undefined {
    if (this.ended) return undefined;
    if (!this.opened) this.open();
    this.writes += 1;
    this.batch += frame;
    if (this.batch.length >= BATCH_LIMIT) this.flush();
    else if (!this.flushQueued) {
      this.flushQueued = true;
      process.nextTick(SseWriter.flushBatch, this);
    }
    return this.res.writableNeedDrain ? this.writable() : undefined;
  }

  /** Writes the frames gathered during the tick (a writer's `process.nextTick` callback). */
  private static flushBatch(this: void, writer: SseWriter): void {
    writer.flushQueued = false;
    writer.flush();
  }

  /** Hands the frames gathered so far to the response (they leave when it uncorks). */
  flush(): void {
    const batch = this.batch;
    if (batch === '') return;
    this.batch = '';
    if (!this.res.destroyed && !this.res.writableEnded) this.res.write(batch);
  }

  /** Writes a comment line (`: text`), which clients ignore. */
  comment(text: string): Promise<void> | undefined {
    return this.write(`: ${text}\n\n`);
  }

  /** Ends the stream and stops the heartbeat. */
  end(): void {
    if (this.ended) return;
    // Unless the response was answered already, without the stream (a resume with nothing left).
    if (!this.opened && !this.res.destroyed && !this.res.headersSent) this.open();
    this.ended = true;
    this.stopHeartbeat();
    const batch = this.batch;
    this.batch = '';
    if (this.res.destroyed || this.res.writableEnded) return;
    // The last frames ride with the end: one write fewer per stream.
    if (batch === '') this.res.end();
    else this.res.end(batch);
  }

  /** The client went away: nothing more can be written (what waited to be written is dropped). */
  gone(): void {
    this.ended = true;
    this.batch = '';
    this.detach();
  }

  /** Stops the heartbeat without ending (the client is gone). */
  stopHeartbeat(): void {
    this.clock?.leave(this);
    this.clock = undefined;
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
   * One tick of the clock, every `heartbeatMs`: pings when nothing went out since the previous
   * tick, so a ping follows one to two periods of silence and a busy stream costs no timer work
   * per event. The first tick after joining only starts the count.
   */
  beat(): void {
    if (this.closed) {
      this.stopHeartbeat();
      return;
    }
    if (this.firstBeat) this.firstBeat = false;
    else if (this.writes === this.writesAtLastBeat) void this.comment('ping');
    this.writesAtLastBeat = this.writes;
  }
}
