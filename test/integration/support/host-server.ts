import { spawn } from 'node:child_process';
import { userEnv } from '../../../apps/cli/test/support/generated-project.js';
import { childStopper } from './stop-child.js';

/** A Node.js program of the host project serving HTTP on a port it chose. */
export interface HostServer {
  /** Base URL the program announced, e.g. `http://127.0.0.1:43123`. */
  url: string;
  /** Stops it (SIGTERM, SIGKILL after 5 s) and waits until it exited. */
  stop(): Promise<void>;
}

/**
 * Runs `node <script>` in `cwd` and resolves once it prints `listening on <url>`; rejects with its
 * output when it exits (or stays silent for `timeoutMs`) before that.
 */
export function startHostServer(
  cwd: string,
  script: string,
  timeoutMs = 30_000,
): Promise<HostServer> {
  const child = spawn(process.execPath, [script], {
    cwd,
    env: userEnv(),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const stop = childStopper(child);
  return new Promise((resolve, reject) => {
    const fail = (why: string): void => {
      clearTimeout(timer);
      void stop();
      reject(new Error(`node ${script} ${why}:\n${output}`));
    };
    const onExit = (code: number | null, signal: NodeJS.Signals | null): void =>
      fail(`exited (${code ?? signal}) before listening`);
    const onData = (chunk: Buffer): void => {
      output += chunk.toString();
      const listening = /^listening on (http:\/\/\S+)$/m.exec(output);
      if (listening === null) return;
      clearTimeout(timer);
      child.off('exit', onExit);
      resolve({ url: listening[1], stop });
    };
    const timer = setTimeout(() => fail(`did not listen within ${timeoutMs} ms`), timeoutMs);
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', onExit);
    child.once('error', (error) => fail(`could not start (${String(error)})`));
  });
}
