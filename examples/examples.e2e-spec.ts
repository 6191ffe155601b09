import { afterAll, describe, expect, it } from '@jest/globals';
import { TestClient } from 'toolkit/testing';
import { app as chatMemory } from './chat-memory/app.js';
import { app as streamChat } from './stream-chat/app.js';
import { app as summarize } from './summarize/app.js';
import { app as translate } from './translate/app.js';

// The examples use `new LLM('auto')`: with no provider key in the test environment that is
// the offline, deterministic `echo` model.
const KEY_VARS = [
  'OPENAI_API_KEY',
  'ANTHROPIC_API_KEY',
  'GEMINI_API_KEY',
  'MISTRAL_API_KEY',
  'DEEPSEEK_API_KEY',
  'XAI_API_KEY',
];
for (const name of KEY_VARS) delete process.env[name];

afterAll(async () => {
  await Promise.all([chatMemory, streamChat, summarize, translate].map((app) => app.close()));
});

describe('examples/chat-memory', () => {
  const client = new TestClient(chatMemory);

  it('answers {status, version} on /health', async () => {
    expect((await client.get('/health')).json()).toEqual({ status: 'healthy', version: '1.0.0' });
  });

  it('keeps one conversation per user and clears it', async () => {
    const first = await client.post('/chat', {
      json: { user_id: 'ana', message: 'My name is Ana' },
    });
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ response: expect.any(String) });
    const second = await client.post('/chat', { json: { user_id: 'ana', message: 'Who am I?' } });
    const other = await client.post('/chat', { json: { user_id: 'bob', message: 'Who am I?' } });
    // The echo model answers from the history, so Ana's and Bob's answers differ.
    expect(second.json<{ response: string }>().response).not.toBe(
      other.json<{ response: string }>().response,
    );
    expect(await chatMemory.memory('ana').toDictList()).toHaveLength(4);

    expect((await client.post('/clear', { json: { user_id: 'ana' } })).json()).toEqual({
      status: 'cleared',
    });
    expect(await chatMemory.memory('ana').toDictList()).toEqual([]);
    expect(await chatMemory.memory('bob').toDictList()).toHaveLength(2);
  });

  it('answers 422 when user_id is missing', async () => {
    const res = await client.post('/chat', { json: { message: 'hi' } });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ details: [{ param: 'user_id', problem: 'is required' }] });
  });
});

describe('examples/stream-chat', () => {
  it('streams the answer as several SSE message events', async () => {
    const res = await new TestClient(streamChat).post('/chat', {
      json: { message: 'Tell me a story' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/event-stream/);
    const events = res.events();
    expect(events.length).toBeGreaterThan(3);
    expect(events.every((e) => e.event === 'message')).toBe(true);
  });
});

describe('examples/summarize', () => {
  const client = new TestClient(summarize);

  it('summarises, then serves the same text from the cache', async () => {
    const text = 'Toolkit builds LLM apps. It streams, caches and remembers conversations.';
    const first = await client.post('/summarize', { json: { text } });
    expect(first.json()).toEqual({ summary: expect.any(String) });
    expect(first.headers['x-cache']).toBe('MISS');
    const second = await client.post('/summarize', { json: { text } });
    expect(second.headers['x-cache']).toBe('HIT');
    expect(second.json()).toEqual(first.json());
  });

  it('returns [{ error }, 400] for empty text, uncached', async () => {
    const res = await client.post('/summarize', { json: { text: '   ' } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: 'text must not be empty' });
    expect((await client.post('/summarize', { json: { text: '   ' } })).headers['x-cache']).toBe(
      'MISS',
    );
  });
});

describe('examples/translate', () => {
  const client = new TestClient(translate);

  it('defaults target_lang to Spanish and accepts another language', async () => {
    const res = await client.post('/translate', { json: { text: 'Good morning' } });
    expect(res.json()).toEqual({ translation: expect.any(String), language: 'Spanish' });
    const german = await client.post('/translate', {
      json: { text: 'Good morning', target_lang: 'German' },
    });
    expect(german.json<{ language: string }>().language).toBe('German');
  });
});
