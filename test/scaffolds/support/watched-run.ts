import { spawn } from 'node:child_process';
import { stripVTControlCharacters } from 'node:util';
import { userEnv } from '../../../apps/cli/test/support/generated-project.js';

/**
 * How long a step may go without printing a line before it counts as stuck. Steps are limited
 * by their progress, not by a total time: a slow machine or registry only makes them longer.
 */
export const QUIET_LIMIT_MS = 180_000;

/** How a program run by {@link runWatched} ended. */
export interface WatchedResult {
  /** The command line, for messages. */
  command: string;
  code: number | null;
  signal: NodeJS.Signals | null;
  /** stdout and stderr interleaved, colours removed. */
  output: string;
  /** Wall time from spawn to exit. */
  ms: number;
}

/**
 * Runs a program to completion in `cwd` with a user's environment. It is killed (its whole
 * process group: npm's children too) when it prints nothing for `quietMs`, which the result's
 * output then says.
 */
export function runWatched(
  command: string,
  args: readonly string[],
  { cwd, quietMs = QUIET_LIMIT_MS }: { cwd: string; quietMs?: number },
): Promise<WatchedResult> {
  const started = performance.now();
  const commandLine = [command, ...args].join(' ');
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd,
      env: userEnv(),
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let output = '';
    let quiet: NodeJS.Timeout | undefined;
    const watch = (): void => {
      clearTimeout(quiet);
      quiet = setTimeout(() => {
        output += `\n[${commandLine}: silent for ${quietMs / 1000} s, killed]\n`;
        process.kill(-child.pid!, 'SIGKILL');
      }, quietMs);
    };
    const onData = (chunk: Buffer): void => {
      output += chunk.toString();
      watch();
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('error', (error) => {
      clearTimeout(quiet);
      reject(error);
    });
    child.once('close', (code, signal) => {
      clearTimeout(quiet);
      const ms = Math.round(performance.now() - started);
      resolve({ command: commandLine, code, signal, output: stripVTControlCharacters(output), ms });
    });
    watch();
  });
}
