import { Injectable } from '@nestjs/common';
import { spawn, type ChildProcess } from 'node:child_process';
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';

/** Options of {@link ProcessService.run} and {@link ProcessService.runAttached}. */
export interface RunOptions {
  /** Working folder. @default process.cwd() */
  cwd?: string;
  /** Environment. @default process.env */
  env?: NodeJS.ProcessEnv;
  /** {@link ProcessService.capture} only: the program is killed (SIGKILL) after this long. */
  timeoutMs?: number;
}

/** How a program run by {@link ProcessService.run} ended, and what it printed. */
export interface RunResult {
  /** Exit status; `null` when a signal ended it. */
  code: number | null;
  /** The signal that ended it, if any. */
  signal: NodeJS.Signals | null;
  /** Everything written to stdout (also shown to the user as it came). */
  stdout: string;
  /** Everything written to stderr (also shown to the user as it came). */
  stderr: string;
}

/** How a program run by {@link ProcessService.runAttached} ended. */
export interface AttachedResult {
  /** Exit status; `null` when a signal ended it. */
  code: number | null;
  /** The signal that ended it, if any. */
  signal: NodeJS.Signals | null;
  /** True when the CLI itself received SIGINT/SIGTERM while the program ran. */
  interrupted: boolean;
}

const FORWARDED: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM'];

/**
 * Finds and runs other programs (deploy clients, jest, vitepress, git). Commands never call
 * `child_process` themselves, so the way programs are found and run is one reviewed place.
 *
 * @example
 * const flyctl = processes.which('flyctl');
 * const result = await processes.run(flyctl, ['deploy'], { cwd });
 */
@Injectable()
export class ProcessService {
  /** The full path of an executable on `PATH`, or `undefined` (like `command -v`). */
  which(name: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
    for (const dir of (env.PATH ?? '').split(delimiter)) {
      if (!dir) continue;
      const candidate = join(dir, name);
      try {
        if (!statSync(candidate).isFile()) continue;
        accessSync(candidate, constants.X_OK);
        return candidate;
      } catch {
        // not here
      }
    }
    return undefined;
  }

  /**
   * Runs a program to completion with the user's terminal as stdin while its output is shown
   * live AND captured (deploy clients print the URL the CLI repeats at the end).
   */
  run(command: string, args: readonly string[], options: RunOptions = {}): Promise<RunResult> {
    return new Promise((resolve, reject) => {
      const child = spawn(command, args, {
        cwd: options.cwd,
        env: options.env ?? process.env,
        stdio: ['inherit', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk.toString();
        process.stdout.write(chunk);
      });
      child.stderr.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
        process.stderr.write(chunk);
      });
      child.on('error', reject);
      child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
    });
  }

  /**
   * Runs a program quietly, stdin closed, and returns what it printed (for `git rev-parse` and
   * the like).
   */
  capture(command: string, args: readonly string[], options: RunOptions = {}): Promise<RunResult> {
    return new Promise((resolve) => {
      const child = spawn(command, args, {
        cwd: options.cwd,
        env: options.env ?? process.env,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const timer =
        options.timeoutMs === undefined
          ? undefined
          : setTimeout(() => {
              child.kill('SIGKILL');
              // A grandchild may hold the pipes open; closing them lets 'close' fire.
              child.stdout.destroy();
              child.stderr.destroy();
            }, options.timeoutMs);
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      child.on('error', (error) => {
        clearTimeout(timer);
        resolve({ code: 127, signal: null, stdout, stderr: error.message });
      });
      child.on('close', (code, signal) => {
        clearTimeout(timer);
        resolve({ code, signal, stdout, stderr });
      });
    });
  }

  /**
   * Runs a long-lived program (jest, a docs server) attached to the terminal. SIGINT/SIGTERM sent
   * to the CLI are passed on and the CLI waits for the program to end, so nothing is orphaned.
   */
  runAttached(
    command: string,
    args: readonly string[],
    options: RunOptions & { stdin?: 'inherit' | 'ignore' } = {},
  ): Promise<AttachedResult> {
    return new Promise((resolve, reject) => {
      const child: ChildProcess = spawn(command, args, {
        cwd: options.cwd,
        env: options.env ?? process.env,
        stdio: [options.stdin ?? 'inherit', 'inherit', 'inherit'],
      });
      let interrupted = false;
      const forward = (signal: NodeJS.Signals): void => {
        interrupted = true;
        child.kill(signal);
      };
      for (const signal of FORWARDED) process.on(signal, forward);
      const detach = (): void => {
        for (const signal of FORWARDED) process.off(signal, forward);
      };
      child.on('error', (error) => {
        detach();
        reject(error);
      });
      child.on('exit', (code, signal) => {
        detach();
        resolve({ code, signal, interrupted });
      });
    });
  }
}
