import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { TestClient } from 'toolkit/testing';
import type { App } from 'toolkit';

const KEY = 'test-key-123';
let app: App;
let client: TestClient;

// API_KEYS is read when the app starts, so set it before importing app.ts.
beforeAll(async () => {
  process.env.API_KEYS = `${KEY},another-key`;
  ({ app } = await import('../app.js'));
  client = new TestClient(app);
});
afterAll(() => app.close());

describe('the API', () => {
  it('serves / and /health without a key', async () => {
    expect((await client.get('/')).json()).toMatchObject({
      version: '0.1.0',
      endpoints: expect.any(Array),
    });
    expect((await client.get('/health')).json()).toEqual({ status: 'healthy', version: '0.1.0' });
  });

  it('refuses protected routes without a valid key', async () => {
    const missing = await client.post('/complete', { json: { prompt: 'Hi' } });
    expect(missing.statusCode).toBe(401);
    expect(missing.headers['www-authenticate']).toMatch(/^Bearer/);
    expect(missing.json()).toEqual({ error: 'An API key is required' });
    const wrong = await client.post('/complete', {
      json: { prompt: 'Hi' },
      headers: { authorization: 'Bearer nope' },
    });
    expect(wrong.statusCode).toBe(401);
  });

  it('accepts a key as Bearer token or X-API-Key', async () => {
    const bearer = await client.post('/complete', {
      json: { prompt: 'Hi' },
      headers: { authorization: `Bearer ${KEY}` },
    });
    expect(bearer.json()).toEqual({ completion: expect.any(String) });
    const header = await client.post('/chat', {
      json: { message: 'Hi', history: [{ role: 'user', content: 'Earlier' }] },
      headers: { 'x-api-key': 'another-key' },
    });
    expect(header.json()).toEqual({ response: expect.any(String) });
  });

  it('checks bounds and history shape', async () => {
    const auth = { authorization: `Bearer ${KEY}` };
    const bounds = await client.post('/complete', {
      json: { prompt: 'Hi', temperature: 5 },
      headers: auth,
    });
    expect(bounds.statusCode).toBe(422);
    const history = await client.post('/chat', {
      json: { message: 'Hi', history: [{ role: 'robot' }] },
      headers: auth,
    });
    expect(history.statusCode).toBe(422);
    expect(history.json()).toMatchObject({ details: [{ param: 'history[0]' }] });
  });

  it('keeps a server-side conversation per API key', async () => {
    const chat = (key: string, message: string) =>
      client.post('/chat', {
        json: { message, conversation_id: 'support' },
        headers: { authorization: `Bearer ${key}` },
      });
    await chat(KEY, 'My name is Ana');
    const mine = await chat(KEY, 'What is my name?');
    expect(mine.json()).toEqual({
      response: expect.stringMatching(/^Your name is Ana/),
      conversation_id: 'support',
    });
    // Another key naming the same conversation starts from nothing.
    const theirs = await chat('another-key', 'What is my name?');
    expect(theirs.json<{ response: string }>().response).toMatch(/^You have not told me/);
    const forget = await client.delete('/conversations/support', {
      headers: { authorization: 'Bearer another-key' },
    });
    expect(forget.json()).toEqual({ status: 'cleared', conversation_id: 'support' });
    const still = await chat(KEY, 'What is my name?');
    expect(still.json<{ response: string }>().response).toMatch(/^Your name is Ana/);
  });
});
