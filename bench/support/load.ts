import autocannon from 'autocannon';
import { request } from 'node:http';
import { median } from './stats.js';

/** One HTTP request the load generator repeats. */
export interface RequestSpec {
  path: string;
  method: 'GET' | 'POST';
  /** JSON body (sent with `content-type: application/json`). */
  json?: unknown;
}

/** What one autocannon run measured. */
export interface LoadResult {
  requestsPerSec: number;
  /** Completed requests. */
  requests: number;
  latencyP50: number;
  latencyP99: number;
}

/**
 * Drives `baseUrl` with autocannon for `seconds` over `connections` keep-alive connections and
 * returns completed requests per second. Any error, timeout or non-2xx answer fails the run.
 */
export async function drive(
  baseUrl: string,
  spec: RequestSpec,
  seconds: number,
  connections: number,
): Promise<LoadResult> {
  const result = await autocannon({
    url: `${baseUrl}${spec.path}`,
    method: spec.method,
    connections,
    duration: seconds,
    timeout: 10,
    ...(spec.json !== undefined
      ? { body: JSON.stringify(spec.json), headers: { 'content-type': 'application/json' } }
      : {}),
  });
  if (result.errors > 0 || result.timeouts > 0 || result.non2xx > 0) {
    throw new Error(
      `${baseUrl}${spec.path}: ${result.errors} errors, ${result.timeouts} timeouts, ${result.non2xx} non-2xx`,
    );
  }
  return {
    requestsPerSec: result.requests.total / result.duration,
    requests: result.requests.total,
    latencyP50: result.latency.p50,
    latencyP99: result.latency.p99,
  };
}

/** A measured server run: throughput, and the server's CPU microseconds per request. */
export interface ServerLoad {
  requestsPerSec: number;
  cpuMicrosPerRequest: number;
  /** Completed requests of the run. */
  requests: number;
}

/** {@link drive} against a server process, also reading how much CPU the server spent. */
export async function driveServer(
  server: { url: string; cpuSeconds(): number },
  spec: RequestSpec,
  seconds: number,
  connections: number,
): Promise<ServerLoad> {
  const before = server.cpuSeconds();
  const result = await drive(server.url, spec, seconds, connections);
  const cpu = server.cpuSeconds() - before;
  return {
    requestsPerSec: result.requestsPerSec,
    cpuMicrosPerRequest: (cpu * 1e6) / result.requests,
    requests: result.requests,
  };
}

/** What a single request returned, for checks before a benchmark. */
export interface Probe {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  /** Milliseconds from sending the request until the first body bytes arrived. */
  firstByteMs: number;
}

/** Sends one request on a fresh connection and reads the whole answer. */
export function probe(baseUrl: string, spec: RequestSpec): Promise<Probe> {
  const url = new URL(spec.path, baseUrl);
  const payload = spec.json === undefined ? undefined : JSON.stringify(spec.json);
  return new Promise((resolve, reject) => {
    const start = performance.now();
    const req = request(
      url,
      {
        method: spec.method,
        agent: false,
        headers: payload ? { 'content-type': 'application/json' } : {},
        timeout: 10_000,
      },
      (res) => {
        let body = '';
        let firstByteMs = -1;
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          if (firstByteMs < 0) firstByteMs = performance.now() - start;
          body += chunk;
        });
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body, firstByteMs }),
        );
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error(`${url.href} timed out`)));
    req.on('error', reject);
    req.end(payload);
  });
}

/** Median time to the first body bytes over `count` sequential requests. */
export async function timeToFirstByte(
  baseUrl: string,
  spec: RequestSpec,
  count: number,
): Promise<number> {
  const samples: number[] = [];
  for (let i = 0; i < count; i += 1) samples.push((await probe(baseUrl, spec)).firstByteMs);
  return median(samples);
}
