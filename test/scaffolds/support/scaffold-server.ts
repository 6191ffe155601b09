import { spawn } from 'node:child_process';
import { request } from 'node:http';
import { freePort } from '../../../apps/cli/test/support/cli-process.js';
import { userEnv } from '../../../apps/cli/test/support/generated-project.js';
import { QUIET_LIMIT_MS } from './watched-run.js';
import { childStopper } from '../../integration/support/stop-child.js';

/** A built scaffold app serving on a port of its own. */
export interface ScaffoldServer {
  /** e.g. `http://127.0.0.1:43123` */
  url: string;
  /** Spawn to the first 200 answer to `GET /`, in ms. */
  coldStartMs: number;
  /** Its output so far. */
  output(): string;
  /** SIGTERM (SIGKILL after 5 s), resolved once it exited. */
  stop(): Promise<void>;
}

/** Pause between two tries of `GET /` while the app starts. */
const POLL_MS = 5;

/**
 * `node <entry>` in `cwd` with `PORT` set, as `npm run start:prod` runs the app (the scaffold's
 * main.ts listens on `process.env.PORT ?? 3000`). Resolves at its first 200 answer to `GET /`;
 * rejects with its output when it exits first, or prints nothing and does not answer for
 * {@link QUIET_LIMIT_MS}.
 */
export async function startScaffoldServer(cwd: string, entry: string): Promise<ScaffoldServer> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const started = performance.now();
  const child = spawn(process.execPath, [entry], {
    cwd,
    env: userEnv({ PORT: String(port) }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  let lastOutput = performance.now();
  const onData = (chunk: Buffer): void => {
    output += chunk.toString();
    lastOutput = performance.now();
  };
  child.stdout.on('data', onData);
  child.stderr.on('data', onData);
  const stop = childStopper(child);
  for (;;) {
    if (await answersRoot(url)) {
      const coldStartMs = Math.round(performance.now() - started);
      return { url, coldStartMs, output: () => output, stop };
    }
    const running = child.exitCode === null && child.signalCode === null;
    const quiet = performance.now() - lastOutput > QUIET_LIMIT_MS;
    if (!running || quiet) {
      await stop();
      const why = running ? `was silent for ${QUIET_LIMIT_MS / 1000} s` : 'exited';
      throw new Error(`node ${entry} in ${cwd} ${why} before answering GET /:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

/** Whether `GET /` answers 200 (false while nothing listens). */
function answersRoot(url: string): Promise<boolean> {
  return new Promise((resolve) => {
    const req = request(`${url}/`, { agent: false }, (res) => {
      res.resume();
      res.once('end', () => resolve(res.statusCode === 200));
    });
    req.once('error', () => resolve(false));
    req.end();
  });
}
