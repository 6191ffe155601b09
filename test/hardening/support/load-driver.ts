import { send, type HttpRequest } from './http-client.js';

/** One request the driver made. */
export interface Sample {
  lane: string;
  startedAt: number;
  endedAt: number;
  /** HTTP status, or 0 when the request failed without one (reset, timeout). */
  status: number;
  /** The start of the body of a non-2xx answer, or the failure (reset, timeout). */
  error?: string;
}

/**
 * Keeps steady traffic on an app while a test breaks and repairs its backends: each lane sends
 * its next request as soon as the last one answered, and every answer is recorded with the time
 * it was sent. Every request has its own timeout, so a hang shows up as a failed sample.
 */
export class LoadDriver {
  readonly samples: Sample[] = [];
  private running = false;
  private lanes: Promise<void>[] = [];

  constructor(
    private readonly base: string,
    private readonly makers: Record<string, (n: number) => HttpRequest>,
    private readonly lanesPerMaker = 3,
  ) {}

  start(): void {
    this.running = true;
    for (const [lane, make] of Object.entries(this.makers)) {
      for (let i = 0; i < this.lanesPerMaker; i += 1) this.lanes.push(this.loop(lane, make, i));
    }
  }

  async stop(): Promise<void> {
    this.running = false;
    await Promise.all(this.lanes);
  }

  /** Samples of one lane sent within [from, to). */
  between(lane: string, from: number, to = Infinity): Sample[] {
    return this.samples.filter((s) => s.lane === lane && s.startedAt >= from && s.startedAt < to);
  }

  /** Resolves once `predicate` holds for a sample sent after `since` (at most `timeoutMs`). */
  async until(
    lane: string,
    since: number,
    predicate: (s: Sample) => boolean,
    timeoutMs = 20_000,
  ): Promise<number> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      const hit = this.between(lane, since).find(predicate);
      if (hit) return hit.startedAt;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`${lane}: condition not met within ${timeoutMs} ms`);
  }

  private async loop(
    lane: string,
    make: (n: number) => HttpRequest,
    offset: number,
  ): Promise<void> {
    for (let n = offset * 1_000_000; this.running; n += 1) {
      const startedAt = Date.now();
      try {
        const answer = await send(this.base, { timeoutMs: 10_000, ...make(n) });
        this.samples.push({
          lane,
          startedAt,
          endedAt: Date.now(),
          status: answer.status,
          ...(answer.status >= 300 ? { error: answer.body.slice(0, 200) } : {}),
        });
      } catch (error) {
        this.samples.push({
          lane,
          startedAt,
          endedAt: Date.now(),
          status: 0,
          error: String(error),
        });
      }
    }
  }
}

/** Status → how many samples had it, e.g. `{ 200: 31, 503: 12 }`. */
export function statusCounts(samples: readonly Sample[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const s of samples) counts[s.status] = (counts[s.status] ?? 0) + 1;
  return counts;
}
