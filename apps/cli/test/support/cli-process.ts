import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root (three levels above this folder). */
export const REPO_ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
/** The built `toolkit` executable, as `npm run build` emits it. */
export const CLI_BIN = join(REPO_ROOT, 'dist/apps/cli/src/main.js');

/** Fails loudly when the CLI has not been built: these tests run the real binary. */
export function assertCliBuilt(): void {
  if (!existsSync(CLI_BIN)) throw new Error(`${CLI_BIN} is missing: run "npm run build" first`);
}

/** How a finished CLI run ended. */
export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Options of {@link runCli} and {@link startCli}. */
export interface CliSpawnOptions {
  cwd: string;
  env?: NodeJS.ProcessEnv;
  /** Written to stdin, which is then closed. */
  input?: string;
  /** The run is killed (and the test fails) after this long. @default 30000 */
  timeoutMs?: number;
}

/** Runs `toolkit <args>` to completion, like a user would, and returns its exit and output. */
export function runCli(args: readonly string[], options: CliSpawnOptions): Promise<CliResult> {
  const cli = startCli(args, options);
  return cli.exited.then(({ code, signal }) => ({
    code,
    signal,
    stdout: cli.stdout(),
    stderr: cli.stderr(),
  }));
}

/** A running `toolkit` process. */
export interface CliProcess {
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** Resolves with the first match of `pattern` in stdout+stderr after `fromIndex` matches. */
  waitFor(pattern: RegExp, timeoutMs?: number, occurrence?: number): Promise<RegExpMatchArray>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Starts `toolkit <args>` and returns a handle for waiting on its output and exit. */
export function startCli(args: readonly string[], options: CliSpawnOptions): CliProcess {
  const child = spawn(process.execPath, [CLI_BIN, ...args], {
    cwd: options.cwd,
    env: { ...(options.env ?? process.env), NO_COLOR: '1' },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  const listeners = new Set<() => void>();
  const notify = (): void => listeners.forEach((listener) => listener());
  child.stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString();
    notify();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    err += chunk.toString();
    notify();
  });
  if (options.input !== undefined) child.stdin.write(options.input);
  child.stdin.end();
  const killer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 30000);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.on('close', (code, signal) => {
      clearTimeout(killer);
      notify();
      resolve({ code, signal });
    });
  });

  const waitFor = (pattern: RegExp, timeoutMs = 20000, occurrence = 1): Promise<RegExpMatchArray> =>
    new Promise((resolve, reject) => {
      const global = new RegExp(
        pattern.source,
        pattern.flags.includes('g') ? pattern.flags : `${pattern.flags}g`,
      );
      const check = (): boolean => {
        const matches = [...`${out}\n${err}`.matchAll(global)];
        if (matches.length >= occurrence) {
          done();
          resolve(matches[occurrence - 1]);
          return true;
        }
        if (child.exitCode !== null || child.signalCode !== null) {
          done();
          reject(new Error(`toolkit exited before printing ${pattern}:\n${out}\n${err}`));
          return true;
        }
        return false;
      };
      const timer = setTimeout(() => {
        done();
        reject(new Error(`timed out waiting for ${pattern}:\n${out}\n${err}`));
      }, timeoutMs);
      const listener = (): void => void check();
      const done = (): void => {
        clearTimeout(timer);
        listeners.delete(listener);
      };
      listeners.add(listener);
      check();
    });

  return { child, stdout: () => out, stderr: () => err, waitFor, exited };
}

/** A TCP port nothing listens on right now. */
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

/** True while a process with that pid exists. */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Polls `condition` every 50 ms until it holds or `timeoutMs` passes. */
export async function eventually(
  condition: () => boolean | Promise<boolean>,
  timeoutMs = 10000,
): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await condition()) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return condition();
}

/** Maps `items` through `task` with at most `limit` running at once (CLI runs are CPU-bound). */
export async function mapLimit<T, R>(
  items: readonly T[],
  limit: number,
  task: (item: T) => Promise<R>,
): Promise<R[]> {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const index = next++;
      results[index] = await task(items[index]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
