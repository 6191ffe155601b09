import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** One sample of an instant vector, as Prometheus's HTTP API answers it. */
export interface VectorSample {
  metric: Record<string, string>;
  value: [number, string];
}

/** A port free now on 127.0.0.1 (Prometheus takes no `:0`). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** `promtool check metrics` on `text`: its exit code and what it said. */
export function promtoolCheck(text: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('promtool', ['check', 'metrics'], { stdio: ['pipe', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, output }));
    child.stdin.end(text);
  });
}

/** A real Prometheus server (Debian's `prometheus`), scraping one target every second. */
export class PrometheusServer {
  private constructor(
    readonly url: string,
    private readonly child: ChildProcess,
    private readonly dir: string,
    readonly log: () => string,
  ) {}

  /** Starts it on a free port, scraping `target` (`host:port`) at `/metrics` with `token`. */
  static async start(target: string, token?: string): Promise<PrometheusServer> {
    const dir = mkdtempSync(join(tmpdir(), 'toolkit-prometheus-'));
    const auth = token ? `    authorization:\n      credentials: ${token}\n` : '';
    writeFileSync(
      join(dir, 'prometheus.yml'),
      `global:\n  scrape_interval: 1s\n  scrape_timeout: 1s\nscrape_configs:\n  - job_name: toolkit\n${auth}    static_configs:\n      - targets: ['${target}']\n`,
    );
    const port = await freePort();
    const child = spawn(
      'prometheus',
      [
        `--config.file=${join(dir, 'prometheus.yml')}`,
        `--storage.tsdb.path=${join(dir, 'data')}`,
        `--web.listen-address=127.0.0.1:${port}`,
      ],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    let log = '';
    child.stderr?.on('data', (chunk: Buffer) => (log = (log + chunk.toString()).slice(-20_000)));
    const server = new PrometheusServer(`http://127.0.0.1:${port}`, child, dir, () => log);
    await server.ready();
    return server;
  }

  /** An instant query's vector; `[]` while nothing matches. */
  async query(promql: string): Promise<VectorSample[]> {
    const res = await fetch(`${this.url}/api/v1/query?query=${encodeURIComponent(promql)}`);
    const body = (await res.json()) as { status: string; data?: { result: VectorSample[] } };
    if (body.status !== 'success') throw new Error(`query ${promql}: ${JSON.stringify(body)}`);
    return body.data?.result ?? [];
  }

  /** Scrapes of the target done so far (`up` samples stored). */
  async scrapes(): Promise<number> {
    const [sample] = await this.query('count_over_time(up{job="toolkit"}[1h])');
    return sample ? Number(sample.value[1]) : 0;
  }

  /**
   * Queries `promql` until `accept` takes its answer, giving up once Prometheus has scraped the
   * app `maxScrapes` more times without that (or has exited).
   */
  async until(
    promql: string,
    accept: (samples: VectorSample[]) => boolean,
    maxScrapes = 10,
  ): Promise<VectorSample[]> {
    const limit = (await this.scrapes()) + maxScrapes;
    for (;;) {
      const samples = await this.query(promql);
      if (accept(samples)) return samples;
      if (this.child.exitCode !== null) throw new Error(`prometheus exited:\n${this.log()}`);
      const done = await this.scrapes();
      if (done >= limit) {
        throw new Error(
          `${promql} after ${done} scrapes: ${JSON.stringify(samples)}\n${this.log()}`,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  /** Stops it and removes its files. */
  async stop(): Promise<void> {
    if (this.child.exitCode === null) {
      const exited = new Promise((resolve) => this.child.once('exit', resolve));
      this.child.kill('SIGTERM');
      await exited;
    }
    rmSync(this.dir, { recursive: true, force: true });
  }

  /** Waits for `/-/ready`, as long as the process lives. */
  private async ready(): Promise<void> {
    for (;;) {
      if (this.child.exitCode !== null) throw new Error(`prometheus exited:\n${this.log()}`);
      const ok = await fetch(`${this.url}/-/ready`).then(
        (res) => res.ok,
        () => false,
      );
      if (ok) return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}
