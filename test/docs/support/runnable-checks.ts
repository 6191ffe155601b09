import { expect } from '@jest/globals';
import { App } from 'toolkit';
import type { RunningSnippet } from './snippet-runner.js';

/** What a runnable README block must really do, by the name in its snippet comment. */
export type RunnableCheck = (run: RunningSnippet) => Promise<void>;

/** A request over the real socket the block listens on (its `app.run()` / `app.listen()`). */
async function overSocket(run: RunningSnippet, path: string, init: RequestInit = {}) {
  expect(run.address).toEqual(expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/));
  const headers = { connection: 'close', 'content-type': 'application/json' };
  return fetch(`${run.address}${path}`, { ...init, headers });
}

/**
 * One check per `<!-- snippet: runnable NAME -->` block. Every runnable block needs one and every
 * check needs its block, so renaming either side fails the README test.
 */
export const RUNNABLE_CHECKS: Readonly<Record<string, RunnableCheck>> = {
  'chat-memory': async ({ app, client }) => {
    expect(app).toBeInstanceOf(App);
    const health = await client.get('/health');
    expect([health.statusCode, health.json()]).toEqual([
      200,
      { status: 'healthy', version: '1.0.0' },
    ]);
    const chat = await client.post('/chat', { json: { user_id: 'ana', message: 'I am Ana' } });
    expect([chat.statusCode, chat.json()]).toEqual([200, { response: expect.any(String) }]);
    const history = await (app as App).memory('ana').toDictList();
    expect(history.map(({ role, content }) => [role, content])).toEqual([
      ['user', 'I am Ana'],
      ['assistant', chat.json<{ response: string }>().response],
    ]);
    const cleared = await client.post('/clear', { json: { user_id: 'ana' } });
    expect(cleared.json()).toEqual({ status: 'cleared' });
    expect(await (app as App).memory('ana').toDictList()).toEqual([]);
    const missing = await client.post('/chat', { json: { message: 'hi' } });
    expect(missing.statusCode).toBe(422);
  },

  translator: async (run) => {
    const { client } = run;
    const translated = await client.post('/translate', { json: { text: 'hello' } });
    expect([translated.statusCode, translated.json()]).toEqual([
      200,
      { translation: '[Spanish] hello', language: 'Spanish' },
    ]);
    const german = await client.post('/translate', { json: { text: 'hi', target_lang: 'German' } });
    expect(german.json()).toEqual({ translation: '[German] hi', language: 'German' });
    const missing = await client.post('/translate', { json: {} });
    expect(missing.statusCode).toBe(422);
    expect(missing.json()).toMatchObject({ details: [{ param: 'text', problem: 'is required' }] });
    // The block's `await app.run()` really listens, on the free port the runner asked for.
    const health = await overSocket(run, '/health');
    expect([health.status, await health.json()]).toEqual([
      200,
      { status: 'healthy', version: '1.0.0' },
    ]);
  },

  tools: async ({ client }) => {
    // The offline echo model calls a tool for "/tool NAME {args}".
    const agent = await client.post('/agent', {
      json: { message: '/tool add {"a": 2, "b": 3}' },
    });
    expect([agent.statusCode, agent.json()]).toEqual([
      200,
      { text: 'Tool add returned {"sum":5}.', calls: ['add'] },
    ]);
    const stream = await client.post('/agent/stream', {
      json: { message: '/tool add {"a": 1, "b": "x"}' },
    });
    const events = stream.events();
    expect(events.slice(0, 2).map((e) => e.event)).toEqual(['tool-call', 'tool-result']);
    expect(JSON.parse(events[1].data)).toMatchObject({
      name: 'add',
      error: expect.stringMatching(/b: must be number/),
    });
    expect(events.at(-1)?.event).toBe('finish');
  },

  controllers: async ({ client }) => {
    expect((await client.get('/items/42')).json()).toEqual({ id: '42', verbose: false });
    const verbose = await client.get('/items/42', { params: { verbose: true } });
    expect(verbose.json()).toEqual({ id: '42', verbose: true });
    const stream = await client.post('/chat/stream', { json: { message: 'hello big world' } });
    expect(stream.statusCode).toBe(200);
    expect(stream.headers['content-type']).toMatch(/^text\/event-stream/);
    expect(stream.events().map(({ event, data }) => [event, data])).toEqual([
      ['message', 'hello'],
      ['message', 'big'],
      ['message', 'world'],
    ]);
    expect((await client.post('/chat/stream', { json: {} })).statusCode).toBe(422);
  },

  'nest-module': async (run) => {
    const { client } = run;
    const greeted = await client.post('/greet', { json: { name: 'Ada' } });
    expect([greeted.statusCode, greeted.json()]).toEqual([200, { greeting: 'Hello, Ada!' }]);
    const missing = await client.post('/greet', { json: {} });
    expect(missing.statusCode).toBe(422);
    expect(missing.json()).toMatchObject({ details: [{ param: 'name', problem: 'is required' }] });
    const malformed = await client.post('/greet', {
      data: '{"name":',
      headers: { 'content-type': 'application/json' },
    });
    expect([malformed.statusCode, malformed.json()]).toEqual([400, { error: expect.any(String) }]);
    // ToolkitModule adds no route of its own: /openapi.json is opt-in (`openapi: true`).
    const openapi = await client.get('/openapi.json');
    expect([openapi.statusCode, openapi.json()]).toEqual([
      404,
      { message: 'Cannot GET /openapi.json', error: 'Not Found', statusCode: 404 },
    ]);
    // The block's `await app.listen(process.env.PORT ?? 3000)` really listens.
    const body = JSON.stringify({ name: 'Bo' });
    const socket = await overSocket(run, '/greet', { method: 'POST', body });
    expect([socket.status, await socket.json()]).toEqual([200, { greeting: 'Hello, Bo!' }]);
  },
};
