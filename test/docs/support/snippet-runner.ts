import type { INestApplication } from '@nestjs/common';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Server } from 'node:http';
import { App } from 'toolkit';
import { TestClient } from 'toolkit/testing';
import type { SnippetModule } from './snippet-module.js';

/** A runnable README block, imported and ready to be driven. */
export interface RunningSnippet {
  /** What the block exports as `app`. */
  app: App | INestApplication;
  /** An in-process client on `app`. */
  client: TestClient;
  /** `http://127.0.0.1:PORT` when the block started listening (`app.run()`, `app.listen()`). */
  address?: string;
}

/**
 * Runs a runnable README block: writes its module to disk (inside the repository, so jest's
 * module mapping resolves `toolkit` to the sources) and imports it with `HOST=127.0.0.1` and
 * `PORT=0`, so an `app.run()` or `app.listen(process.env.PORT ?? 3000)` in it listens on a free
 * local port. The block must export `app`; close it with {@link stopSnippet}.
 */
export async function runSnippet(module: SnippetModule): Promise<RunningSnippet> {
  await mkdir(dirname(module.fileName), { recursive: true });
  await writeFile(module.fileName, module.text);
  const exports = await withEnv({ HOST: '127.0.0.1', PORT: '0' }, () => import(module.fileName));
  const app: unknown = exports.app;
  if (!isClosable(app)) {
    throw new Error(`the runnable block at README.md:${module.snippet.line} must export \`app\``);
  }
  return { app, client: new TestClient(app), ...(await listeningAddress(app)) };
}

/** Closes the block's app, and with it any server it started. */
export async function stopSnippet(run: RunningSnippet): Promise<void> {
  await run.app.close();
}

async function withEnv<T>(values: Record<string, string>, action: () => Promise<T>): Promise<T> {
  const saved = Object.fromEntries(Object.keys(values).map((name) => [name, process.env[name]]));
  Object.assign(process.env, values);
  try {
    return await action();
  } finally {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  }
}

function isClosable(value: unknown): value is App | INestApplication {
  return (
    value instanceof App ||
    (typeof value === 'object' &&
      value !== null &&
      typeof (value as Partial<INestApplication>).getHttpServer === 'function')
  );
}

async function listeningAddress(app: App | INestApplication): Promise<{ address?: string }> {
  const nest = app instanceof App ? await app.init() : app;
  const server = nest.getHttpServer() as Server;
  const address = server.address();
  if (!server.listening || address === null || typeof address === 'string') return {};
  return { address: `http://127.0.0.1:${address.port}` };
}
