import { request } from 'node:http';

/** One request to the host's own routes (the scaffold's `GET /` and the probe controller). */
export interface HostRequest {
  name: string;
  method: string;
  path: string;
  /** Sent as `application/json` (as is: it may be malformed on purpose). */
  json?: string;
}

/** What the host answers on its own; toolkit must not change a byte of it. */
export const HOST_REQUESTS: readonly HostRequest[] = [
  { name: 'GET / (Hello World!)', method: 'GET', path: '/' },
  { name: 'unknown path (404)', method: 'GET', path: '/no-such-path' },
  { name: 'unknown method on a host path (404)', method: 'DELETE', path: '/' },
  { name: '/openapi.json, not served by the host (404)', method: 'GET', path: '/openapi.json' },
  { name: '/health, not served by the host (404)', method: 'GET', path: '/health' },
  {
    name: 'ValidationPipe rejects the DTO (400)',
    method: 'POST',
    path: '/probe/validate',
    json: '{"name":7,"count":0}',
  },
  { name: 'malformed JSON body (400)', method: 'POST', path: '/probe/validate', json: '{"name":' },
  {
    name: 'ValidationPipe accepts the DTO (201)',
    method: 'POST',
    path: '/probe/validate',
    json: '{"name":"probe","count":2}',
  },
  { name: 'thrown HttpException (403)', method: 'GET', path: '/probe/http-exception' },
  { name: 'thrown Error (500)', method: 'GET', path: '/probe/crash' },
];

/** An answer as it came over the socket. */
export interface RawResponse {
  status: number;
  contentType: string | undefined;
  /** The body's bytes, one character per byte (latin1): equal strings are equal bytes. */
  body: string;
  /** Every header but `content-type`, lower-case names. */
  headers: Record<string, string>;
}

/** Headers whose value changes from one answer to the next whatever the app. */
const VOLATILE_HEADERS = new Set(['date']);

/** Sends one request on a fresh connection and records the raw answer. */
export function rawRequest(
  base: string,
  { method, path, json }: HostRequest,
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = request(
      `${base}${path}`,
      {
        method,
        agent: false,
        headers: json === undefined ? {} : { 'content-type': 'application/json' },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.once('end', () => {
          const { 'content-type': contentType, ...headers } = res.headers;
          resolve({
            status: res.statusCode ?? 0,
            contentType,
            body: Buffer.concat(chunks).toString('latin1'),
            headers: Object.fromEntries(
              Object.entries(headers).map(([name, value]) => [name, String(value)]),
            ),
          });
        });
      },
    );
    req.once('error', reject);
    req.end(json);
  });
}

/** The host's answer to each of {@link HOST_REQUESTS}, by request name. */
export async function recordHostResponses(base: string): Promise<Record<string, RawResponse>> {
  const answers: Record<string, RawResponse> = {};
  for (const hostRequest of HOST_REQUESTS) {
    answers[hostRequest.name] = await rawRequest(base, hostRequest);
  }
  return answers;
}

/** Status, content type and body of each answer: what must be the same byte for byte. */
export function comparable(
  answers: Record<string, RawResponse>,
): Record<string, Pick<RawResponse, 'status' | 'contentType' | 'body'>> {
  return Object.fromEntries(
    Object.entries(answers).map(([name, { status, contentType, body }]) => [
      name,
      { status, contentType, body },
    ]),
  );
}

/** The other headers that differ between two recordings (`date` aside), as readable lines. */
export function headerDifferences(
  before: Record<string, RawResponse>,
  after: Record<string, RawResponse>,
): string[] {
  return Object.keys(before).flatMap((name) => {
    const [a, b] = [before[name].headers, after[name]?.headers ?? {}];
    const headers = new Set([...Object.keys(a), ...Object.keys(b)]);
    return [...headers]
      .filter((header) => !VOLATILE_HEADERS.has(header) && a[header] !== b[header])
      .map((header) => `${name}: ${header}: ${a[header] ?? '(none)'} → ${b[header] ?? '(none)'}`);
  });
}
