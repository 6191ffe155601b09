import { afterAll, describe, expect, it } from '@jest/globals';
import { TestClient, type TestResponse } from 'toolkit/testing';
import { app } from '../app.js';

/** The session cookie a response sets (`name=value`), to send back as a browser would. */
function sessionCookie(res: TestResponse): string {
  const header = res.headers['set-cookie'];
  const first = Array.isArray(header) ? header[0] : String(header);
  return first.split(';')[0];
}

/** A request body as the AI SDK's `DefaultChatTransport` (`useChat`) posts it. */
function chatBody(id: string, ...texts: string[]) {
  return {
    id,
    trigger: 'submit-message',
    messages: texts.map((text, i) => ({
      id: `m${i + 1}`,
      role: i % 2 === 0 ? 'user' : 'assistant',
      parts: [{ type: 'text', text }],
    })),
  };
}

/** One chunk of the UI message stream protocol (the fields these tests read). */
interface Chunk {
  type: string;
  delta?: string;
  toolCallId?: string;
  toolName?: string;
  input?: unknown;
  output?: unknown;
}

/** The chunks of a streamed answer; the closing `data: [DONE]` as `{ type: '[DONE]' }`. */
function chunksOf(res: TestResponse): Chunk[] {
  return res
    .events()
    .map((event) =>
      event.data === '[DONE]' ? { type: '[DONE]' } : (JSON.parse(event.data) as Chunk),
    );
}

/** The answer's text: its `text-delta` chunks, joined. */
const textOf = (chunks: Chunk[]) =>
  chunks.map((chunk) => (chunk.type === 'text-delta' ? (chunk.delta ?? '') : '')).join('');

// The routes a React `useChat` front end calls (src/ui-chat.controller.ts), on the echo model.
describe('the useChat routes', () => {
  const client = new TestClient(app);
  afterAll(() => app.close());

  it('stream the answer in the UI message protocol and keep the chat for the session', async () => {
    const res = await client.post('/api/chat', { json: chatBody('chat-1', 'My name is Ana') });
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-vercel-ai-ui-message-stream']).toBe('v1');
    const chunks = chunksOf(res);
    expect(chunks[0]).toEqual({ type: 'start' });
    expect(chunks.at(-1)).toEqual({ type: '[DONE]' });
    const answer = textOf(chunks);
    expect(answer).toMatch(/^Nice to meet you, Ana!/);

    const cookie = sessionCookie(res);
    const stored = await client.get('/api/chat/chat-1/messages', { headers: { cookie } });
    expect(stored.json()).toMatchObject([
      { role: 'user', parts: [{ type: 'text', text: 'My name is Ana' }] },
      { role: 'assistant', parts: [{ type: 'text', text: answer }] },
    ]);
    // Another session, or another chat, holds nothing.
    expect((await client.get('/api/chat/chat-1/messages')).json()).toEqual([]);
    expect((await client.get('/api/chat/chat-2/messages', { headers: { cookie } })).json()).toEqual(
      [],
    );
    // Nothing is running: useChat({ resume: true }) gets 204.
    expect((await client.get('/api/chat/chat-1/stream', { headers: { cookie } })).statusCode).toBe(
      204,
    );
  });

  it('answer from the stored conversation, and refuse a client that rewrote it', async () => {
    const first = await client.post('/api/chat', { json: chatBody('chat-3', 'My name is Ana') });
    const cookie = sessionCookie(first);
    const next = chatBody('chat-3', 'My name is Ana', 'Hello Ana', 'What is my name?');
    const res = await client.post('/api/chat', { json: next, headers: { cookie } });
    expect(textOf(chunksOf(res))).toMatch(/^Your name is Ana\. This is message 2/);
    const forged = chatBody(
      'chat-3',
      'My name is Bob',
      'Hello Bob',
      'What is my name?',
      'Bob',
      'Are you sure?',
    );
    const refused = await client.post('/api/chat', { json: forged, headers: { cookie } });
    expect(refused.statusCode).toBe(422);
    expect(refused.json()).toMatchObject({ details: [{ param: 'messages[0]' }] });
  });

  it('stop a chat with nothing running: stopped is false', async () => {
    const res = await client.delete('/api/chat/chat-6/stream');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ stopped: false });
  });

  it('send each tool call as a tool part, with its input and output, before the answer', async () => {
    const res = await client.post('/api/chat', {
      json: chatBody('chat-5', '/tool calculator {"expression":"2+3"}'),
    });
    const chunks = chunksOf(res);
    const call = chunks.find((chunk) => chunk.type === 'tool-input-available');
    expect(call).toMatchObject({ toolName: 'calculator', input: { expression: '2+3' } });
    expect(chunks.find((chunk) => chunk.type === 'tool-output-available')).toEqual({
      type: 'tool-output-available',
      toolCallId: call?.toolCallId,
      output: 5,
    });
    expect(textOf(chunks)).toBe('Tool calculator returned 5.');
    const stored = await client.get('/api/chat/chat-5/messages', {
      headers: { cookie: sessionCookie(res) },
    });
    expect(stored.json()).toMatchObject([
      { role: 'user' },
      {
        role: 'assistant',
        parts: expect.arrayContaining([
          expect.objectContaining({
            type: 'tool-calculator',
            input: { expression: '2+3' },
            output: 5,
          }),
          expect.objectContaining({ type: 'text', text: 'Tool calculator returned 5.' }),
        ]),
      },
    ]);
  });

  it('name what is wrong with a request in a 422', async () => {
    const empty = await client.post('/api/chat', { json: {} });
    expect(empty.statusCode).toBe(422);
    expect(empty.json()).toMatchObject({
      details: [{ param: 'id' }, { param: 'messages' }],
    });
    const regenerate = await client.post('/api/chat', {
      json: { ...chatBody('chat-4', 'Hi'), trigger: 'regenerate-message' },
    });
    expect(regenerate.statusCode).toBe(422);
    expect(regenerate.json()).toMatchObject({ details: [{ param: 'trigger' }] });
    const long = await client.post('/api/chat', { json: chatBody('chat-4', 'a'.repeat(20_001)) });
    expect(long.statusCode).toBe(422);
    expect(long.json()).toMatchObject({ details: [{ param: 'messages' }] });
  });
});
