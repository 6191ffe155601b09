import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { connect } from 'node:net';
import { join } from 'node:path';
import type { McpStdioServer } from '../../../src/mcp/mcp-server-config.js';
import { freePort } from '../../state/support/timing.js';

export { freePort };

const ROOT = join(import.meta.dirname, '../../../../..');

/** The official reference server's entry point (`mcp-server-everything`). */
export const EVERYTHING_BIN = join(
  ROOT,
  'node_modules/@modelcontextprotocol/server-everything/dist/index.js',
);

/** server-everything over stdio, started by toolkit. */
export const everythingStdio = (): McpStdioServer => ({
  command: process.execPath,
  args: [EVERYTHING_BIN, 'stdio'],
});

/** Resolves once something accepts connections on `port` (retrying while the process lives). */
async function listening(port: number, child: ChildProcess): Promise<void> {
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    const ok = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => (socket.destroy(), resolve(true)));
      socket.once('error', () => resolve(false));
    });
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** A running server-everything over Streamable HTTP, on its own port. */
export interface EverythingHttp {
  url: string;
  port: number;
  child: ChildProcess;
  stop(): Promise<void>;
}

/** Starts server-everything over Streamable HTTP as a child process on `port` (a free one by default). */
export async function startEverythingHttp(port?: number): Promise<EverythingHttp> {
  const chosen = port ?? (await freePort());
  const child = spawn(process.execPath, [EVERYTHING_BIN, 'streamableHttp'], {
    env: { ...process.env, PORT: String(chosen) },
    stdio: 'ignore',
  });
  await listening(chosen, child);
  return {
    url: `http://127.0.0.1:${chosen}/mcp`,
    port: chosen,
    child,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGKILL');
      await once(child, 'exit');
    },
  };
}

/** Resolves once `check()` is true, polling; fails after `attempts` polls. */
export async function eventually(
  check: () => boolean | Promise<boolean>,
  attempts = 200,
): Promise<void> {
  for (let i = 0; i < attempts; i++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('condition not met in time');
}
