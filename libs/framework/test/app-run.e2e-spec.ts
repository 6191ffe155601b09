import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App, type AppOptions } from 'toolkit';

/** Runs an app on a free port, capturing what it printed on stdout, then closes it. */
async function runAndCapture(
  options: AppOptions,
  announce?: boolean,
): Promise<{ printed: string; port: number }> {
  const cwd = mkdtempSync(join(tmpdir(), 'toolkit-run-'));
  const app = new App({ cwd, ...options });
  const writes: string[] = [];
  const spy = jest.spyOn(process.stdout, 'write').mockImplementation((chunk: unknown) => {
    writes.push(String(chunk));
    return true;
  });
  try {
    const server = await app.run({ host: '127.0.0.1', port: 0, announce });
    spy.mockRestore();
    const port = (server.address() as AddressInfo).port;
    const response = await fetch(`http://127.0.0.1:${port}/health`);
    expect(response.status).toBeLessThan(500);
    return { printed: writes.join(''), port };
  } finally {
    spy.mockRestore();
    await app.close();
    rmSync(cwd, { recursive: true, force: true });
  }
}

describe('app.run() says where it listens', () => {
  afterEach(() => {
    jest.restoreAllMocks();
  });

  it('prints "<title> listening on <url>" with the real port', async () => {
    const { printed, port } = await runAndCapture({ title: 'demo' });
    expect(printed).toBe(`demo listening on http://127.0.0.1:${port}\n`);
  });

  it('prints nothing with logger: false or announce: false', async () => {
    expect((await runAndCapture({ title: 'quiet', logger: false })).printed).toBe('');
    expect((await runAndCapture({ title: 'cli' }, false)).printed).toBe('');
  });
});
