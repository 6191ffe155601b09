import { afterAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { toSnippetModule } from './snippet-module.js';
import { runSnippet, stopSnippet } from './snippet-runner.js';

const DIR = mkdtempSync(join(dirname(fileURLToPath(import.meta.url)), '../.snippets-'));
afterAll(() => {
  rmSync(DIR, { recursive: true, force: true });
});

const runnable = (line: number, ...code: string[]) =>
  toSnippetModule({ line, code: code.join('\n'), directive: { form: 'runnable', name: 'x' } }, DIR);

describe('runSnippet', () => {
  it('runs a block whose app.run() listens on a free local port, then frees it', async () => {
    const saved = process.env.PORT;
    process.env.PORT = '8123';
    const run = await runSnippet(
      runnable(
        1,
        "import { App } from 'toolkit';",
        'export const app = new App();',
        "app.route('/ping', {}, () => ({ pong: process.env.PORT }));",
        'await app.run();',
      ),
    );
    try {
      expect(process.env.PORT).toBe('8123');
      expect(run.address).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(run.address).not.toMatch(/:(8000|8123)$/);
      expect((await run.client.get('/ping')).json()).toEqual({ pong: '8123' });
      const socket = await fetch(`${run.address}/ping`, { headers: { connection: 'close' } });
      expect(socket.status).toBe(200);
    } finally {
      await stopSnippet(run);
      if (saved === undefined) delete process.env.PORT;
      else process.env.PORT = saved;
    }
    await expect(fetch(`${run.address}/ping`)).rejects.toThrow();
  });

  it('gives no address for an app that does not listen', async () => {
    const run = await runSnippet(
      runnable(2, "import { App } from 'toolkit';", 'export const app = new App();'),
    );
    expect(run.address).toBeUndefined();
    expect((await run.client.get('/nowhere')).statusCode).toBe(404);
    await stopSnippet(run);
  });

  it('fails a block that does not export app', async () => {
    await expect(runSnippet(runnable(3, 'export const server = 1;'))).rejects.toThrow(
      'the runnable block at README.md:3 must export `app`',
    );
  });
});
