import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Browser } from 'playwright-core';
import { launchChromium } from './support/chat-page-browser.js';
import {
  expectSafeMarkdown,
  expectStopSurvivesReload,
  expectToolSteps,
} from './support/chat-page-checks.js';
import { assertCliBuilt, eventually, isAlive } from './support/cli-process.js';
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
} from './support/generated-project.js';

describe('toolkit new -t agent, end to end', () => {
  let project: GeneratedProject;
  let server: DevServer | undefined;
  let browser: Browser | undefined;
  const post = (path: string, json: unknown) => requestJson(`${server!.url}${path}`, { json });

  beforeAll(async () => {
    assertCliBuilt();
    project = await generateProject('agent', 'e2e-agent');
    await npmInstall(project);
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await server?.kill();
    project?.cleanup();
  }, 30_000);

  it("installs one copy of Nest and passes the project's own npm test", async () => {
    expect(installedCopies(project, '@nestjs/core')).toEqual(['node_modules/@nestjs/core']);
    await expectOwnTestsPass(project);
  }, 120_000);

  it('type-checks with its own npm run typecheck', async () => {
    await expectTypeChecks(project);
  }, 90_000);

  it('is served by toolkit dev --no-reload on the offline echo model', async () => {
    server = await startDevServer(project);
    expect(server.cli.stdout()).toMatch(/LLM: +echo \(offline/);
    expect(await requestJson(`${server.url}/health`)).toMatchObject({
      status: 200,
      body: { status: 'healthy', version: '0.1.0' },
    });
  }, 90_000);

  it('POST /analyze answers each analysis type and serves a repeat from the cache', async () => {
    const text = 'I love this product. Shipping was slow.';
    for (const type of ['sentiment', 'summary', 'keywords', 'entities']) {
      const first = await post('/analyze', { text, analysis_type: type });
      expect(first).toMatchObject({
        status: 200,
        body: { analysis: expect.any(String), analysis_type: type },
      });
      expect(first.headers.get('x-cache')).not.toBe('HIT');
      const again = await post('/analyze', { text, analysis_type: type });
      expect(again.headers.get('x-cache')).toBe('HIT');
      expect(again.body).toEqual(first.body);
    }
    expect(await post('/analyze', { text })).toMatchObject({
      body: { analysis_type: 'summary' },
    });
    expect(await post('/analyze', { text, analysis_type: 'magic' })).toMatchObject({
      status: 422,
      body: { details: [{ param: 'analysis_type' }] },
    });
    expect(await post('/analyze', { text: '   ' })).toEqual(
      expect.objectContaining({ status: 400, body: { error: 'text must not be empty' } }),
    );
  });

  it('POST /generate writes in built-in styles and in one added by toolkit.yaml', async () => {
    for (const style of ['formal', 'casual', 'technical', 'creative', 'concise', 'pirate']) {
      expect(await post('/generate', { prompt: 'Announce the release', style })).toMatchObject({
        status: 200,
        body: { content: expect.any(String), style },
      });
    }
    expect(await post('/generate', { prompt: 'Hi' })).toMatchObject({ body: { style: 'formal' } });
    const unknown = await post('/generate', { prompt: 'Hi', style: 'shouting' });
    expect(unknown).toMatchObject({ status: 422, body: { details: [{ param: 'style' }] } });
    expect(JSON.stringify(unknown.body)).toContain('pirate');
  });

  it('POST /chat remembers the conversation of each session, apart from any other', async () => {
    const url = `${server!.url}/chat`;
    const first = await requestJson(url, { json: { user_id: 'ada', message: 'Call me Ada' } });
    const setCookie = first.headers.get('set-cookie') ?? '';
    expect(setCookie).toMatch(/^toolkit_session=.*; HttpOnly; SameSite=Lax$/);
    const ada = { cookie: setCookie.split(';')[0] };
    const ask = (json: unknown, headers?: Record<string, string>) =>
      requestJson(url, { json, headers });
    expect(await ask({ user_id: 'ada', message: 'What is my name?' }, ada)).toMatchObject({
      status: 200,
      body: { response: expect.stringMatching(/^Your name is Ada\./) },
    });
    // Another session sending the same user_id has its own, empty conversation...
    const eve = await ask({ user_id: 'ada', message: 'What is my name?' });
    expect(eve.body).toEqual({
      response: expect.stringMatching(/^You have not told me/),
      tool_calls: [],
    });
    // ...and its /clear leaves Ada's alone.
    const eveCookie = { cookie: (eve.headers.get('set-cookie') ?? '').split(';')[0] };
    await requestJson(`${server!.url}/clear`, { json: { user_id: 'ada' }, headers: eveCookie });
    expect(await ask({ user_id: 'ada', message: 'What is my name?' }, ada)).toMatchObject({
      body: { response: expect.stringMatching(/^Your name is Ada\./) },
    });
  });

  it('GET / is a chat page: Stop keeps a stopped answer across a reload, markdown is safe', async () => {
    browser = await launchChromium();
    await expectStopSurvivesReload(browser, server!.url);
    await expectSafeMarkdown(browser, server!.url);
  }, 90_000);

  it('POST /chat and /chat/stream run tools; the chat page shows each step and its result', async () => {
    const chat = await post('/chat', { message: '/tool calculator {"expression": "6 * 7"}' });
    expect(chat).toMatchObject({
      status: 200,
      body: {
        response: 'Tool calculator returned 42.',
        tool_calls: [{ name: 'calculator', args: { expression: '6 * 7' }, result: 42 }],
      },
    });
    const res = await fetch(`${server!.url}/chat/stream`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ message: '/tool current_time {"timezone": "Europe/Paris"}' }),
    });
    const body = await res.text();
    expect(body).toMatch(/^event: tool-call\ndata: \{"id":"[^"]+","name":"current_time".*\nid: /m);
    expect(body).toMatch(/^event: tool-result\n(id: .*\n)?data: .*"timezone":"Europe\/Paris"/m);
    expect(body).toMatch(/^event: finish\n/m);
    await expectToolSteps(browser!, server!.url);
  }, 90_000);

  it('stops on Ctrl+C (SIGINT) with exit status 0', async () => {
    const pid = server!.serverPid;
    expect(await server!.interrupt()).toEqual({ code: 0, signal: null });
    expect(await eventually(() => !isAlive(pid), 5_000)).toBe(true);
  }, 30_000);
});
