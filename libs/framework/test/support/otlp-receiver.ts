import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { decodeOtlpJson, type ReceivedSpan } from './otlp-json.js';

export type { ReceivedSpan } from './otlp-json.js';

/** One export request the receiver got. */
export interface ReceivedExport {
  path: string;
  contentType: string;
  bytes: number;
}

/** How the receiver treats exports: `answer` them, or accept the connection and never answer. */
export type ReceiverMode = 'answer' | 'black-hole';

/**
 * An OTLP/HTTP trace receiver on 127.0.0.1 (`POST /v1/traces`), for tests: JSON exports
 * (`OTEL_EXPORTER_OTLP_PROTOCOL=http/json`) are decoded into {@link ReceivedSpan}s; protobuf
 * ones are recorded as {@link ReceivedExport}s only (the installed OpenTelemetry packages carry no
 * protobuf decoder for requests). In `black-hole` mode it accepts connections and never answers.
 *
 * @example
 * const receiver = await OtlpReceiver.start();
 * process.env.OTEL_EXPORTER_OTLP_ENDPOINT = receiver.url;
 * const spans = await receiver.waitForSpans((all) => all.some((s) => s.name === 'GET /items/:id'));
 */
export class OtlpReceiver {
  readonly spans: ReceivedSpan[] = [];
  readonly exports: ReceivedExport[] = [];
  private readonly waiters = new Set<() => void>();

  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {}

  /** Starts a receiver on a free port. */
  static async start(mode: ReceiverMode = 'answer'): Promise<OtlpReceiver> {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const receiver = new OtlpReceiver(server, `http://127.0.0.1:${port}`);
    server.on('request', (req: IncomingMessage, res: ServerResponse) => {
      if (mode === 'answer') receiver.receive(req, res);
      else req.resume(); // read the export, never answer it
    });
    return receiver;
  }

  /**
   * Resolves with all spans received once `done(spans)` holds. Fails when nothing more arrives
   * for `idleMs` while it does not: the limit is on a pause in progress, not on the total.
   */
  waitForSpans(
    done: (spans: readonly ReceivedSpan[]) => boolean,
    { idleMs = 20_000 }: { idleMs?: number } = {},
  ): Promise<ReceivedSpan[]> {
    return new Promise((resolve, reject) => {
      let timer: NodeJS.Timeout;
      const check = (): void => {
        clearTimeout(timer);
        if (done(this.spans)) {
          this.waiters.delete(check);
          resolve([...this.spans]);
          return;
        }
        timer = setTimeout(() => {
          this.waiters.delete(check);
          const names = this.spans.map((s) => s.name).join(', ');
          reject(new Error(`no matching spans after ${idleMs} ms without new ones; got: ${names}`));
        }, idleMs);
      };
      this.waiters.add(check);
      check();
    });
  }

  /** Resolves once at least `count` spans arrived (see {@link waitForSpans}). */
  waitForCount(count: number): Promise<ReceivedSpan[]> {
    return this.waitForSpans((spans) => spans.length >= count);
  }

  /** Stops listening and drops every connection, the never-answered ones too. */
  async close(): Promise<void> {
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    this.server.closeAllConnections();
    await closed;
  }

  private receive(req: IncomingMessage, res: ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const contentType = String(req.headers['content-type'] ?? '');
      this.exports.push({ path: req.url ?? '', contentType, bytes: body.length });
      if (req.method !== 'POST' || req.url !== '/v1/traces') {
        res.writeHead(404).end();
        return;
      }
      if (contentType.startsWith('application/json')) {
        this.spans.push(...decodeOtlpJson(JSON.parse(body.toString('utf8'))));
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      } else {
        res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
      }
      for (const waiter of [...this.waiters]) waiter();
    });
  }
}
