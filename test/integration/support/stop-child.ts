import type { ChildProcess } from 'node:child_process';

/**
 * A stop function for a spawned server: SIGTERM, then SIGKILL if it has not exited after
 * `graceMs`; resolves once it exited (at once when it already had).
 */
export function childStopper(child: ChildProcess, graceMs = 5_000): () => Promise<void> {
  const exited = new Promise<void>((resolve) => child.once('close', () => resolve()));
  return async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const killer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    child.kill('SIGTERM');
    await exited;
    clearTimeout(killer);
  };
}
