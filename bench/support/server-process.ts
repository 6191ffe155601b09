import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

/** Absolute path of a compiled file under `dist/bench/` (e.g. `servers/json-nest.server.js`). */
export function benchFile(relative: string): string {
  return fileURLToPath(new URL(`../${relative}`, import.meta.url));
}

/** Kernel clock ticks per second (USER_HZ), 100 on every mainstream Linux. */
const CLOCK_TICKS = 100;

/** Extra `node` flags for every child, e.g. `BENCH_NODE_FLAGS=--cpu-prof` to profile them. */
function nodeFlags(): string[] {
  return (process.env.BENCH_NODE_FLAGS ?? '').split(' ').filter(Boolean);
}

/** A benchmark server running in its own Node process on 127.0.0.1. */
export class ServerProcess {
  private constructor(
    readonly name: string,
    readonly port: number,
    private readonly child: ChildProcess,
  ) {}

  /** The server's process id (e.g. to pin it to a CPU). */
  get pid(): number {
    return this.child.pid ?? -1;
  }

  /** The base URL, e.g. `http://127.0.0.1:40123`. */
  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /**
   * Starts `dist/bench/<script>` and waits (at most 30 s) for its `READY <port>` line. `flags`
   * are extra `node` flags for this process only (after `BENCH_NODE_FLAGS`).
   *
   * @example
   * const nest = await ServerProcess.start('nest', 'servers/json-nest.server.js');
   */
  static async start(
    name: string,
    script: string,
    env: Record<string, string> = {},
    flags: readonly string[] = [],
  ): Promise<ServerProcess> {
    const child = spawn(process.execPath, [...nodeFlags(), ...flags, benchFile(script)], {
      env: { ...process.env, ...env, PORT: '0', HOST: '127.0.0.1', NODE_ENV: 'production' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const lines = createInterface({ input: child.stdout });
    const port = await new Promise<number>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`${name}: no READY line within 30 s`)),
        30_000,
      );
      child.once('exit', (code) => reject(new Error(`${name} exited early with ${code}`)));
      lines.on('line', (line) => {
        const match = /^READY (\d+)$/.exec(line);
        if (!match) return;
        clearTimeout(timer);
        resolve(Number(match[1]));
      });
    });
    return new ServerProcess(name, port, child);
  }

  /**
   * CPU seconds (user + system) the server process has used so far, from `/proc` (Linux); NaN
   * elsewhere. CPU per request is far less sensitive to other load on the machine than req/s.
   */
  cpuSeconds(): number {
    try {
      const fields = readFileSync(`/proc/${this.child.pid}/stat`, 'utf8').split(') ')[1].split(' ');
      return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
    } catch {
      return NaN;
    }
  }

  /** Stops the server (SIGTERM, then SIGKILL after 5 s). */
  async stop(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    const exited = once(this.child, 'exit');
    this.child.kill('SIGTERM');
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 5_000);
    await exited;
    clearTimeout(timer);
  }
}

/**
 * Runs `dist/bench/<script>` to completion and parses the JSON it prints last on stdout.
 *
 * @example
 * const { opsPerSec } = await runWorker<{ opsPerSec: number }>('workers/memory-ops.worker.js', ['redis', 'toolkit']);
 */
export async function runWorker<T>(
  script: string,
  args: readonly string[],
  env: Record<string, string> = {},
): Promise<T> {
  const child = spawn(process.execPath, [...nodeFlags(), benchFile(script), ...args], {
    env: { ...process.env, ...env, NODE_ENV: 'production' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
  const [code] = (await once(child, 'exit')) as [number | null];
  if (code !== 0) throw new Error(`${script} ${args.join(' ')} exited with ${code}`);
  const last = out.trim().split('\n').pop() ?? '';
  return JSON.parse(last) as T;
}
