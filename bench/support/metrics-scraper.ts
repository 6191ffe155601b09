import { request } from 'node:http';

/** What a {@link MetricsScraper} fetched. */
export interface ScrapeTally {
  /** `GET /metrics` answers received (all 200, or the scraper throws when stopped). */
  scrapes: number;
  /** Bytes of the last exposition. */
  lastBytes: number;
  /** Sample lines (not `#` comments) in the last exposition. */
  lastSamples: number;
  /** `toolkit_trace_spans_dropped_total` in the last exposition, when it has one. */
  droppedSpans?: number;
}

const DROPPED = /^toolkit_trace_spans_dropped_total(?:\{[^}]*\})? (\S+)$/m;

/**
 * A Prometheus-like scraper: `GET /metrics` of one server every `intervalMs`, one request at a
 * time on a fresh connection, as Prometheus scrapes a target. Runs only while a measurement of
 * that server does, so idle servers are not scraped on the CPU of the one under load.
 *
 * @example
 * const scraper = MetricsScraper.start(server.url);
 * await drive(...);
 * const tally = await scraper.stop();
 */
export class MetricsScraper {
  private readonly tally: ScrapeTally = { scrapes: 0, lastBytes: 0, lastSamples: 0 };
  private failure: Error | undefined;
  private inFlight: Promise<void> = Promise.resolve();
  private readonly timer: NodeJS.Timeout;

  private constructor(
    private readonly baseUrl: string,
    intervalMs: number,
  ) {
    this.timer = setInterval(() => {
      this.inFlight = this.inFlight.then(() => this.scrape());
    }, intervalMs);
  }

  /**
   * Starts scraping `baseUrl`.
   *
   * @param intervalMs time between scrapes. @default 1000
   */
  static start(baseUrl: string, intervalMs = 1000): MetricsScraper {
    return new MetricsScraper(baseUrl, intervalMs);
  }

  /** Stops, waits for a scrape in flight, and returns the tally; throws if a scrape failed. */
  async stop(): Promise<ScrapeTally> {
    clearInterval(this.timer);
    await this.inFlight;
    if (this.failure) throw this.failure;
    return { ...this.tally };
  }

  private scrape(): Promise<void> {
    return new Promise((resolve) => {
      const req = request(
        new URL('/metrics', this.baseUrl),
        { agent: false, timeout: 10_000 },
        (res) => {
          let body = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => (body += chunk));
          res.on('end', () => {
            if (res.statusCode !== 200) {
              this.failure ??= new Error(`GET /metrics answered ${res.statusCode}`);
            } else {
              this.tally.scrapes += 1;
              this.tally.lastBytes = Buffer.byteLength(body);
              this.tally.lastSamples = body
                .split('\n')
                .filter((l) => l && !l.startsWith('#')).length;
              const dropped = DROPPED.exec(body)?.[1];
              if (dropped !== undefined) this.tally.droppedSpans = Number(dropped);
            }
            resolve();
          });
        },
      );
      req.on('timeout', () => req.destroy(new Error('GET /metrics timed out')));
      req.on('error', (error) => {
        this.failure ??= error;
        resolve();
      });
      req.end();
    });
  }
}
