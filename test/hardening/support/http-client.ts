import { request, type IncomingHttpHeaders } from 'node:http';

/** One answer read off a real socket. */
export interface HttpAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A request the hardening tests send. */
export interface HttpRequest {
  method: string;
  path: string;
  headers?: Record<string, string>;
  /** Sent as is (no content-type is added). */
  body?: string | Buffer;
  /** Fail (never hang) when the whole answer takes longer. @default 10000 */
  timeoutMs?: number;
  /**
   * For streams that may not end: stop reading after this many bytes or ms and close the
   * connection (the client "leaves"); the answer holds what arrived.
   */
  readAtMost?: { bytes: number; ms: number };
}

/** Headers every request to a base URL carries (e.g. an app's API key), set by `serve`. */
const defaultHeaders = new Map<string, Record<string, string>>();

/**
 * Makes every later request to `base` carry `headers` (the request's own headers win), so an app
 * behind an API key is probed past its key check, like an authenticated client would.
 */
export function useDefaultHeaders(base: string, headers: Record<string, string>): void {
  defaultHeaders.set(base, headers);
}

/**
 * Sends one request to `base` (e.g. `http://127.0.0.1:1234`) over its own connection and reads
 * the answer. Rejects after `timeoutMs`, so a server that hangs fails the test instead of stalling
 * it.
 */
export function send(base: string, req: HttpRequest): Promise<HttpAnswer> {
  const url = new URL(req.path, base);
  const timeoutMs = req.timeoutMs ?? 10_000;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      outgoing.destroy();
      reject(new Error(`${req.method} ${req.path}: no complete answer within ${timeoutMs} ms`));
    }, timeoutMs);
    const headers: Record<string, string | number> = {
      ...defaultHeaders.get(base),
      ...req.headers,
    };
    // Node frames a GET/DELETE body only when told its length.
    if (req.body !== undefined) headers['content-length'] = Buffer.byteLength(req.body);
    const outgoing = request(url, { method: req.method, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      const finish = (): void => {
        clearTimeout(timer);
        clearTimeout(cutoff);
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          body: Buffer.concat(chunks).toString('utf8'),
        });
      };
      const leave = (): void => {
        res.destroy();
        finish();
      };
      const cutoff = req.readAtMost ? setTimeout(leave, req.readAtMost.ms) : undefined;
      res.on('data', (chunk: Buffer) => {
        chunks.push(chunk);
        size += chunk.length;
        if (req.readAtMost && size >= req.readAtMost.bytes) leave();
      });
      res.on('end', finish);
      res.on('error', () => undefined);
    });
    outgoing.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    outgoing.end(req.body);
  });
}

/** POST/PUT/... with a JSON body. */
export function sendJson(
  base: string,
  method: string,
  path: string,
  json: unknown,
  extra: Partial<HttpRequest> = {},
): Promise<HttpAnswer> {
  return send(base, {
    method,
    path,
    body: JSON.stringify(json),
    ...extra,
    headers: { 'content-type': 'application/json', ...extra.headers },
  });
}

/** The parsed JSON body, or undefined when it is not JSON. */
export function jsonOf(answer: HttpAnswer): unknown {
  try {
    return JSON.parse(answer.body) as unknown;
  } catch {
    return undefined;
  }
}
