import { afterAll, describe, expect, it } from '@jest/globals';
import {
  createTestingApp,
  MockLLM,
  MockMemory,
  TestClient,
  type TestResponse,
} from 'toolkit/testing';
import { app } from '../app.js';
import { ChatController } from '../src/chat.controller.js';

/** The session cookie a response sets (`name=value`), to send back as a browser would. */
function sessionCookie(res: TestResponse): string {
  const header = res.headers['set-cookie'];
  const first = Array.isArray(header) ? header[0] : String(header);
  return first.split(';')[0];
}

/** The memory key of a session's conversation `userId` (see ChatController.conversation). */
function conversationKey(cookie: string, userId = 'me'): string {
  return `session:${cookie.split('=')[1].split('.')[0]}/${userId}`;
}

// The app as `npm run dev` serves it, on the offline echo model (no API key in tests).
describe('the chatbot app', () => {
  const client = new TestClient(app);
  afterAll(() => app.close());

  it('is healthy', async () => {
    const res = await client.get('/health');
    expect(res.json()).toEqual({ status: 'healthy', version: '0.1.0' });
  });

  it('answers and streams, remembering the conversation of each session', async () => {
    const res = await client.post('/chat', { json: { message: 'My name is Ana' } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ response: expect.any(String) });
    // The server issued a session on first contact; a browser sends it back.
    const cookie = sessionCookie(res);
    expect(String(res.headers['set-cookie'])).toContain('; HttpOnly; SameSite=Lax');

    const stream = await client.post('/chat/stream', {
      json: { message: 'What is my name?' },
      headers: { cookie },
    });
    expect(stream.headers['content-type']).toMatch(/^text\/event-stream/);
    expect(
      stream
        .events()
        .map((e) => e.data)
        .join(''),
    ).toMatch(/^Your name is Ana/);

    const history = await client.get('/history', { headers: { cookie } });
    expect(history.json<{ messages: unknown[] }>().messages).toHaveLength(4);

    const cleared = await client.post('/clear', { headers: { cookie } });
    expect(cleared.json()).toEqual({ status: 'cleared' });
    expect((await client.get('/history', { headers: { cookie } })).json()).toEqual({
      messages: [],
    });
  });

  it('keeps two sessions apart even when they send the same user_id', async () => {
    const ana = await client.post('/chat', { json: { user_id: 'ana', message: 'My name is Ana' } });
    const other = await client.post('/chat', {
      json: { user_id: 'ana', message: 'What is my name?' },
    });
    expect(other.json<{ response: string }>().response).toMatch(/^You have not told me your name/);
    expect(sessionCookie(other)).not.toBe(sessionCookie(ana));
  });

  it('says which model answers', async () => {
    expect((await client.get('/model')).json()).toEqual({
      app: expect.any(String),
      model: 'echo',
      offline: true,
    });
  });

  it('serves the chat page', async () => {
    const res = await client.get('/');
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.text()).toContain('/chat/stream');
  });

  it('names a missing parameter in a 422', async () => {
    const res = await client.post('/chat', { json: { user_id: 'ana' } });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ details: [{ param: 'message', problem: 'is required' }] });
  });
});

// The controller alone, with recording mocks in place of the model and the memory.
describe('ChatController with mocks', () => {
  it('sends the history to the model and stores both sides of the exchange', async () => {
    const llm = new MockLLM({ response: 'Hi Ana!' });
    const memory = new MockMemory();
    const { client, close } = await createTestingApp({
      controllers: [ChatController],
      llm,
      memory,
    });
    const res = await client.post('/chat', { json: { user_id: 'ana', message: 'Hello!' } });
    expect(llm.calls[0][0]).toBe('chat');
    expect(llm.calls[0][1]).toBe('Hello!');
    expect(memory.getHistory(conversationKey(sessionCookie(res), 'ana'))).toEqual([
      expect.objectContaining({ role: 'user', content: 'Hello!' }),
      expect.objectContaining({ role: 'assistant', content: 'Hi Ana!' }),
    ]);
    await close();
  });
});
