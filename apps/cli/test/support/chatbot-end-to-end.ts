import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { parseSse } from 'toolkit/testing';
import type { HttpPlatformChoice } from '../../src/new/http-platform-choice.js';
import {
  expectResumeAfterDrop,
  expectSafeMarkdown,
  expectStopSurvivesReload,
} from './chat-page-checks.js';
import {
  ANSWER_SNAPSHOTS,
  EXTERNAL_RESOURCES,
  launchChromium,
  RECORD_ANSWER_SNAPSHOTS,
} from './chat-page-browser.js';
import { assertCliBuilt, eventually, isAlive, REPO_ROOT } from './cli-process.js';
import {
  expectOwnTestsPass,
  expectTypeChecks,
  generateProject,
  installedCopies,
  npmInstall,
  requestJson,
  startDevServer,
  type DevServer,
  type GeneratedProject,
} from './generated-project.js';

const ARTIFACTS = join(REPO_ROOT, 'test-artifacts');

/**
 * `toolkit new -t chatbot [--platform fastify]`, end to end: install, its own tests and type
 * check, `toolkit dev`, the HTTP API and the chat page in Chromium. Each platform's spec file
 * calls it, so the two run side by side.
 */
export function describeChatbotEndToEnd(platform: HttpPlatformChoice): void {
  describe(`toolkit new -t chatbot --platform ${platform}, end to end`, () => {
    let project: GeneratedProject;
    let server: DevServer | undefined;
    let browser: Browser | undefined;
    /** The first test's session, as a Cookie header. */
    let ada: { cookie: string } = { cookie: '' };

    beforeAll(async () => {
      assertCliBuilt();
      project = await generateProject('chatbot', `e2e-chatbot-${platform}`, [
        '--platform',
        platform,
      ]);
      // Fastify's light-my-request needs cookie@2, which declares Node >= 22: on Node 20 npm
      // warns about it, as `toolkit new --platform fastify` said it would.
      const nodeMajor = Number(process.versions.node.split('.')[0]);
      await npmInstall(project, {
        allowEngine: platform === 'fastify' && nodeMajor < 22 ? ['cookie'] : [],
      });
    }, 180_000);
    afterAll(async () => {
      await browser?.close();
      await server?.kill();
      project?.cleanup();
    }, 30_000);

    it('installs the toolkit from this checkout with ONE copy of each Nest package', () => {
      expect(installedCopies(project, '@nestjs/core')).toEqual(['node_modules/@nestjs/core']);
      expect(installedCopies(project, '@nestjs/common')).toEqual(['node_modules/@nestjs/common']);
      expect(installedCopies(project, 'toolkit')).toEqual(['node_modules/toolkit']);
    });

    it("passes the project's own npm test", async () => {
      await expectOwnTestsPass(project);
    }, 120_000);

    it('type-checks with its own npm run typecheck', async () => {
      await expectTypeChecks(project);
    }, 90_000);

    it('is served by toolkit dev --no-reload on the offline echo model', async () => {
      server = await startDevServer(project);
      expect(server.cli.stdout()).toMatch(/LLM: +echo \(offline/);
      expect(server.cli.stdout()).toMatch(
        new RegExp(`Server: +${platform} \\(@nestjs/platform-${platform}`),
      );
      expect(await requestJson(`${server.url}/health`)).toMatchObject({
        status: 200,
        body: { status: 'healthy', version: '0.1.0' },
      });
    }, 90_000);

    it('POST /chat answers and remembers the conversation of each session', async () => {
      const url = `${server!.url}/chat`;
      const first = await requestJson(url, { json: { message: 'My name is Ada' } });
      // The server issues the session: an HttpOnly, SameSite=Lax cookie set on first contact.
      const setCookie = first.headers.get('set-cookie') ?? '';
      expect(setCookie).toMatch(/^toolkit_session=[\w-]+\.[\w-]+; .*HttpOnly; SameSite=Lax$/);
      ada = { cookie: setCookie.split(';')[0] };
      expect(
        await requestJson(url, {
          json: { message: 'What is my name?' },
          headers: ada,
        }),
      ).toMatchObject({
        status: 200,
        body: { response: expect.stringMatching(/^Your name is Ada\. This is message 2/) },
      });
      // Another session gets its own conversation.
      expect(await requestJson(url, { json: { message: 'What is my name?' } })).toMatchObject({
        status: 200,
        body: {
          response: expect.stringMatching(
            /^You have not told me your name yet\. This is the first/,
          ),
        },
      });
      expect(await requestJson(url, { json: { user_id: 'ada' } })).toMatchObject({
        status: 422,
        body: { details: [{ param: 'message' }] },
      });
    });

    it('isolates two sessions sending the same user_id, also on /clear', async () => {
      const url = `${server!.url}/chat`;
      const one = await requestJson(url, { json: { user_id: 'sam', message: 'My name is Sam' } });
      const mine = { cookie: (one.headers.get('set-cookie') ?? '').split(';')[0] };
      const two = await requestJson(url, { json: { user_id: 'sam', message: 'What is my name?' } });
      expect(two.body).toEqual({ response: expect.stringMatching(/^You have not told me/) });
      const theirs = { cookie: (two.headers.get('set-cookie') ?? '').split(';')[0] };
      expect(theirs.cookie).not.toBe(mine.cookie);
      await requestJson(`${server!.url}/clear`, { json: { user_id: 'sam' }, headers: theirs });
      expect(
        await requestJson(url, {
          json: { user_id: 'sam', message: 'What is my name?' },
          headers: mine,
        }),
      ).toMatchObject({ body: { response: expect.stringMatching(/^Your name is Sam\./) } });
      // A forged cookie is a fresh session, never an error and never someone else's history.
      const forged = { cookie: `${mine.cookie.slice(0, -4)}AAAA` };
      expect(
        await requestJson(url, {
          json: { user_id: 'sam', message: 'What is my name?' },
          headers: forged,
        }),
      ).toMatchObject({
        status: 200,
        body: { response: expect.stringMatching(/^You have not told me/) },
      });
    });

    it('POST /chat/stream streams the answer as Server-Sent Events, word by word', async () => {
      const response = await fetch(`${server!.url}/chat/stream`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...ada },
        body: JSON.stringify({ message: 'And what is my name now?' }),
      });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
      const events = parseSse(await response.text());
      expect(events.length).toBeGreaterThan(5);
      expect(events.every((event) => event.event === 'message')).toBe(true);
      expect(events.map((event) => event.data).join('')).toMatch(
        /^Your name is Ada\. This is message 3 of our conversation/,
      );
    });

    it('POST /clear forgets the conversation', async () => {
      expect(await requestJson(`${server!.url}/clear`, { json: {}, headers: ada })).toEqual(
        expect.objectContaining({ status: 200, body: { status: 'cleared' } }),
      );
      expect(
        await requestJson(`${server!.url}/chat`, {
          json: { message: 'What is my name?' },
          headers: ada,
        }),
      ).toMatchObject({
        body: { response: expect.stringMatching(/^You have not told me your name yet/) },
      });
    });

    it('GET / is a chat page that streams an answer in headless Chromium', async () => {
      const page404 = await requestJson(`${server!.url}/`);
      expect(page404.status).toBe(200);
      expect(page404.headers.get('content-type')).toMatch(/^text\/html/);

      browser = await launchChromium();
      const page = await browser.newPage({ viewport: { width: 900, height: 640 } });
      const problems: string[] = [];
      page.on('pageerror', (error) => problems.push(error.message));
      page.on('console', (message) => {
        if (message.type() === 'error') problems.push(message.text());
      });
      page.on('requestfailed', (request) => problems.push(`${request.url()} failed`));
      await page.goto(`${server!.url}/`);
      // No request may leave the app (no CDN): every resource comes from the server itself.
      expect(await page.evaluate<string[]>(EXTERNAL_RESOURCES)).toEqual([]);

      // Record the answer's text at every change, to see it grow while it streams.
      await page.evaluate(RECORD_ANSWER_SNAPSHOTS);
      await page.fill('#input', 'Hello, my name is Ada');
      await page.keyboard.press('Enter');
      await page.waitForSelector('.message.user');
      expect(await page.textContent('.message.user')).toBe('Hello, my name is Ada');
      await page.waitForSelector('.message.assistant:not([data-streaming])', { timeout: 20_000 });

      const answer = await page.textContent('.message.assistant');
      expect(answer).toBe(
        'Nice to meet you, Ada! You said: "Hello, my name is Ada". This is the first message of our conversation.',
      );
      const seen = await page.evaluate<string[]>(ANSWER_SNAPSHOTS);
      expect(seen.length).toBeGreaterThan(5);
      seen.forEach((text) => expect(answer?.startsWith(text)).toBe(true));
      expect(await page.locator('.error').count()).toBe(0);
      expect(await page.isEnabled('#send')).toBe(true);
      expect(problems).toEqual([]);

      mkdirSync(ARTIFACTS, { recursive: true });
      await page.screenshot({ path: join(ARTIFACTS, `chatbot-${platform}.png`) });

      // The browser keeps its session cookie across reloads, so the server still knows the name...
      const ask = async (message: string): Promise<string | null> => {
        const before = await page.locator('.message.assistant').count();
        await page.fill('#input', message);
        await page.click('#send');
        const reply = page.locator('.message.assistant').nth(before);
        await reply.and(page.locator(':not([data-streaming])')).waitFor({ timeout: 20_000 });
        return reply.textContent();
      };
      await page.reload();
      // The page restores the conversation from /history once loaded: counted before that, the
      // restored answer would be taken for the new one.
      await page.locator('.message.assistant').first().waitFor({ timeout: 20_000 });
      expect(await ask('What is my name?')).toMatch(/^Your name is Ada\./);
      // ...until "New conversation" clears it.
      await page.click('#clear');
      await page.waitForSelector('#empty');
      expect(await ask('What is my name?')).toMatch(/^You have not told me your name yet\./);
      expect(problems).toEqual([]);
    }, 60_000);

    it('Stop keeps the partial answer, shown as stopped, also after a reload', async () => {
      await expectStopSurvivesReload(browser!, server!.url);
    }, 60_000);

    it('renders answers as markdown with every HTML tag shown as text', async () => {
      await expectSafeMarkdown(browser!, server!.url);
    }, 60_000);

    it('resumes an answer after the connection drops, nothing lost or repeated', async () => {
      await expectResumeAfterDrop(browser!, server!.url);
    }, 60_000);

    it('stops on Ctrl+C (SIGINT) with exit status 0', async () => {
      const pid = server!.serverPid;
      expect(await server!.interrupt()).toEqual({ code: 0, signal: null });
      expect(await eventually(() => !isAlive(pid), 5_000)).toBe(true);
    }, 30_000);
  });
}
