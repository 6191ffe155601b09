import {
  createServer,
  request,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';

/** The request header that asks {@link CuttingProxy} for a cut: `<token>:<body bytes>`. */
export const CUT_HEADER = 'x-cut-after';

/** Connection-level headers a proxy does not pass on (Node sets its own). */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'upgrade']);

/**
 * An HTTP proxy in front of the app that cuts a response as a failing network would: the first
 * request carrying `x-cut-after: <token>:<n>` gets its status, headers and the first `n` bytes of
 * its body, then its connection closes mid-body. Later requests with the same token (a client
 * reconnecting with the same headers) pass whole, so each token cuts exactly once and many clients
 * can run at once. The header is not forwarded.
 */
export class CuttingProxy {
  /** Requests forwarded so far. */
  requests = 0;
  /** Each answer so far: `<method> <url> <status>`. */
  readonly answers: string[] = [];
  private readonly cut = new Set<string>();

  private constructor(
    private readonly server: Server,
    private readonly upstream: URL,
  ) {}

  /** Where the proxy listens: `http://127.0.0.1:<port>`. */
  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** Starts a proxy on 127.0.0.1 in front of `target` (`http://host:port`). */
  static async start(target: string): Promise<CuttingProxy> {
    const server = createServer();
    const proxy = new CuttingProxy(server, new URL(target));
    server.on('request', (req: IncomingMessage, res: ServerResponse) => proxy.forward(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return proxy;
  }

  /** Stops the proxy, closing the connections it holds. */
  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  /** Passes one request to the app, and its answer back (cut, when asked). */
  private forward(req: IncomingMessage, res: ServerResponse): void {
    const upstream = this.upstream;
    this.requests += 1;
    const budget = this.budgetOf(req.headers[CUT_HEADER]);
    const headers: IncomingHttpHeaders = { ...req.headers };
    delete headers[CUT_HEADER];
    const forwarded = request(
      {
        host: upstream.hostname,
        port: upstream.port,
        path: req.url,
        method: req.method,
        headers,
        agent: false,
      },
      (answer) => {
        const out: Record<string, string | string[]> = {};
        for (const [name, value] of Object.entries(answer.headers)) {
          if (value !== undefined && !HOP_BY_HOP.has(name)) out[name] = value;
        }
        this.answers.push(`${req.method ?? ''} ${req.url ?? ''} ${answer.statusCode ?? 502}`);
        res.writeHead(answer.statusCode ?? 502, out);
        if (budget === undefined) {
          answer.pipe(res);
          return;
        }
        let left = budget;
        const cut = (): void => {
          answer.destroy();
          forwarded.destroy();
          // FIN once what was written has gone: the client reads those bytes, then the end.
          res.socket?.end();
        };
        if (left === 0) {
          res.flushHeaders();
          cut();
          return;
        }
        answer.on('data', (chunk: Buffer) => {
          if (left <= 0) return;
          if (chunk.length < left) {
            left -= chunk.length;
            res.write(chunk);
            return;
          }
          res.write(chunk.subarray(0, left));
          left = 0;
          cut();
        });
        answer.on('end', () => {
          if (left > 0) res.end();
        });
      },
    );
    forwarded.on('error', () => res.destroy());
    res.on('close', () => forwarded.destroy());
    req.pipe(forwarded);
  }

  /** The byte budget of a request's cut, or `undefined` when it passes whole. */
  private budgetOf(header: string | string[] | undefined): number | undefined {
    const value = Array.isArray(header) ? header[0] : header;
    if (value === undefined) return undefined;
    const separator = value.lastIndexOf(':');
    const token = value.slice(0, separator);
    if (separator < 0 || this.cut.has(token)) return undefined;
    this.cut.add(token);
    return Number(value.slice(separator + 1));
  }
}
