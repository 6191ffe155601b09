import { Injectable } from '@nestjs/common';
import { setTimeout as sleep } from 'node:timers/promises';
import { ServiceUnavailableError } from '../../../providers/src/index.js';
import { ServerShutdownError } from '../routing/request-signal.errors.js';
import type { SsePump } from './sse-pump.js';

interface LiveStream {
  readonly pump: SsePump;
  readonly controller: { abort(reason: unknown): void };
  readonly done: Promise<void>;
}

/** The message of the last `event: error` a stream gets when the server shuts down. */
export const SHUTDOWN_MESSAGE = 'The server is shutting down';

/** How long stopped streams get to run their `finally` blocks after the grace period. */
const SETTLE_MS = 1000;

/**
 * The open `@Stream()` responses of the application, so shutdown can end them well: no new
 * stream starts once draining began (503), open ones get a grace period to finish, then each gets
 * a final `event: error` saying the server is shutting down, its signal aborts (upstream LLM
 * calls are cancelled) and its producer stops (a generator's `finally` runs).
 */
@Injectable()
export class StreamRegistry {
  private readonly live = new Set<LiveStream>();
  private draining?: Promise<void>;

  /** Number of streams open right now. */
  get size(): number {
    return this.live.size;
  }

  /** Refuses a new stream while the server shuts down. */
  admit(): void {
    if (this.draining) throw new ServiceUnavailableError(SHUTDOWN_MESSAGE);
  }

  /** Tracks one stream until `done` settles. */
  track(pump: SsePump, controller: LiveStream['controller'], done: Promise<void>): void {
    const entry: LiveStream = { pump, controller, done };
    this.live.add(entry);
    const forget = (): void => void this.live.delete(entry);
    done.then(forget, forget);
  }

  /**
   * Waits up to `graceMs` for open streams to finish, then stops the rest and waits (briefly) for
   * their producers to wind down. Idempotent: later calls wait for the first.
   */
  drain(graceMs: number): Promise<void> {
    this.draining ??= this.stopAll(graceMs);
    return this.draining;
  }

  private async stopAll(graceMs: number): Promise<void> {
    if (this.live.size === 0) return;
    const abort = new AbortController();
    await Promise.race([this.settled(), sleep(graceMs, undefined, { signal: abort.signal })]).catch(
      () => undefined,
    );
    const remaining = [...this.live];
    for (const stream of remaining) {
      stream.pump.stop(SHUTDOWN_MESSAGE);
      stream.controller.abort(new ServerShutdownError());
    }
    await Promise.race([
      this.settled(),
      sleep(SETTLE_MS, undefined, { signal: abort.signal }),
    ]).catch(() => undefined);
    abort.abort();
  }

  private settled(): Promise<unknown> {
    return Promise.allSettled([...this.live].map((stream) => stream.done));
  }
}
