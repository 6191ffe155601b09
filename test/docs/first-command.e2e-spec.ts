/**
 * The README's two commands are a contract too. The test command is exactly what CI runs; the
 * first command, run on a fresh copy of the repository (what a clone holds: tracked files and
 * untracked ones git does not ignore), installs, generates a chat app with our own `toolkit new`
 * and serves it: the chat page at the printed URL answers in Chromium, streaming, on the offline
 * model. Needs the npm cache to install offline, as the template tests do.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { launchChromium } from '../../apps/cli/test/support/chat-page-browser.js';
import { freePort } from '../../apps/cli/test/support/cli-process.js';
import { userEnv } from '../../apps/cli/test/support/generated-project.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');

/** The commands of the README's first ```bash block, comments dropped. */
function readmeCommands(): string[] {
  const block = /```bash\n([\s\S]*?)```/.exec(README)?.[1] ?? '';
  return block
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
}

describe("the README's two commands", () => {
  it('are a first command that starts the app, and the test command CI runs verbatim', () => {
    const [first, tests] = readmeCommands();
    expect(first).toBe('npm install && npm start');
    expect(tests).toMatch(/&& npm test$/);
    const ci = readFileSync(join(ROOT, '.ci/run'), 'utf8')
      .split('\n')
      .filter((line) => line.trim() !== '' && !line.startsWith('#'));
    expect(ci).toContain(tests);
  });
});

describe('the first command on a fresh copy of the repository', () => {
  let copy: string;
  let server: ChildProcess | undefined;
  let browser: Browser | undefined;
  let output = '';
  /** The URL the first command serves, once the test below has started it. */
  let served: string | undefined;

  beforeAll(() => {
    copy = mkdtempSync(join(tmpdir(), 'toolkit-first-command-'));
    const files = execFileSync('git', ['ls-files', '-co', '--exclude-standard', '-z'], {
      cwd: ROOT,
    })
      .toString()
      .split('\0')
      // A tracked file deleted in the working tree is not part of the copy either.
      .filter((file) => file !== '' && existsSync(join(ROOT, file)));
    for (const file of files) {
      mkdirSync(dirname(join(copy, file)), { recursive: true });
      cpSync(join(ROOT, file), join(copy, file));
    }
  });

  afterAll(async () => {
    await browser?.close();
    if (server?.pid && server.exitCode === null) {
      process.kill(-server.pid, 'SIGKILL');
    }
    rmSync(copy, { recursive: true, force: true });
  });

  it('serves the chat page at the printed URL, answering on the offline model', async () => {
    const port = await freePort();
    const env = userEnv({ PORT: String(port), NO_COLOR: '1' });
    server = spawn(
      'bash',
      ['-c', 'npm install --no-audit --no-fund --prefer-offline && npm start'],
      {
        cwd: copy,
        env,
        detached: true,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    const url = await new Promise<string>((resolve, reject) => {
      const onData = (chunk: Buffer): void => {
        output += chunk.toString();
        const match = /Serving .* at (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
        if (match) resolve(match[1]);
      };
      server!.stdout!.on('data', onData);
      server!.stderr!.on('data', onData);
      server!.on('exit', (code) => reject(new Error(`npm start exited ${code}:\n${output}`)));
    });
    expect(url).toBe(`http://127.0.0.1:${port}`);
    expect(output).toContain(`the chat page will be at http://127.0.0.1:${port}/`);
    expect(output).toMatch(/echo/); // the banner says the offline model answers

    browser = await launchChromium();
    const page = await browser.newPage();
    await page.goto(`${url}/`);
    await page.fill('#input', 'Hello from the README');
    await page.keyboard.press('Enter');
    const answer = page.locator('.message.assistant').first();
    await answer.and(page.locator(':not([data-streaming])')).waitFor({ timeout: 20_000 });
    expect(await answer.textContent()).toMatch(/echo/i);
    expect(await page.locator('.error').count()).toBe(0);
    served = url;
  }, 300_000);

  it("runs the README's curl tour against it, and the second message is remembered", () => {
    if (!served) throw new Error('the first command did not start (see the test above)');
    const block = /Try the chat app while it runs[\s\S]*?```bash\n([\s\S]*?)```/.exec(README)?.[1];
    if (!block) throw new Error('README: no "Try the chat app" bash block');
    const commands = block
      .split('\n')
      .filter((line) => line.startsWith('curl '))
      .map((line) => line.replaceAll('localhost:8000', served!.replace('http://', '')));
    expect(commands).toHaveLength(5);
    const jar = mkdtempSync(join(tmpdir(), 'toolkit-readme-curl-'));
    try {
      const run = (command: string): string =>
        execFileSync('bash', ['-c', command], { cwd: jar }).toString();
      expect(run(commands[0])).toContain('"status":"healthy"');
      expect(run(commands[1])).toContain('This is the first message of our conversation.');
      expect(run(commands[2])).toMatch(/message/);
      const stream = run(commands[3]);
      const text = stream
        .split('\n')
        .filter((line) => line.startsWith('data: '))
        .map((line) => line.slice('data: '.length))
        .join('');
      expect(text).toContain('message 2 of our conversation');
      expect(text).toContain('before this you said');
      expect(text).not.toContain('first message');
      expect(run(commands[4])).toContain('"openapi"');
    } finally {
      rmSync(jar, { recursive: true, force: true });
    }
  }, 60_000);

  it('stops the demo server when the npm start process is killed by its id', async () => {
    if (!served) throw new Error('the first command did not start (see the tests above)');
    const port = await freePort();
    // Installed and built by the first test: `npm start` alone now, as a user restarts it.
    const npm = spawn('npm', ['start'], {
      cwd: copy,
      env: userEnv({ PORT: String(port), NO_COLOR: '1' }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let text = '';
    const seen = (pattern: RegExp): Promise<void> =>
      new Promise((resolve, reject) => {
        const check = (): void => {
          if (pattern.test(text)) resolve();
        };
        const onData = (chunk: Buffer): void => {
          text += chunk.toString();
          check();
        };
        npm.stdout.on('data', onData);
        npm.stderr.on('data', onData);
        npm.on('error', reject);
        check();
      });
    await seen(/Serving .* at http:\/\/127\.0\.0\.1:\d+/);
    expect((await fetch(`http://127.0.0.1:${port}/health`)).status).toBe(200);
    npm.kill('SIGTERM'); // npm itself, not its process group: what `kill <pid>` does
    // The demo notices npm is gone and stops the server, which says so on the way out.
    await seen(/Stopped\./);
    await expect(fetch(`http://127.0.0.1:${port}/health`)).rejects.toThrow();
  }, 300_000);
});
