import { afterAll, describe, expect, it } from '@jest/globals';
import { createTestingApp, MockLLM, MockMemory, TestClient } from 'toolkit/testing';
import { app } from '../app.js';
import { ChatController } from '../src/chat.controller.js';

// The app as `npm run dev` serves it, on the offline echo model (no API key in tests).
describe('the chatbot app', () => {
  const client = new TestClient(app);
  afterAll(() => app.close());

  it('is healthy', async () => {
    const res = await client.get('/health');
    expect(res.json()).toEqual({ status: 'healthy', version: '0.1.0' });
  });

  it('answers and streams, remembering each user', async () => {
    const res = await client.post('/chat', { json: { user_id: 'ana', message: 'Hello!' } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ response: expect.any(String) });

    const stream = await client.post('/chat/stream', {
      json: { user_id: 'ana', message: 'And now?' },
    });
    expect(stream.headers['content-type']).toMatch(/^text\/event-stream/);
    expect(stream.events().length).toBeGreaterThan(0);

    const cleared = await client.post('/clear', { json: { user_id: 'ana' } });
    expect(cleared.json()).toEqual({ status: 'cleared' });
  });

  it('serves the chat page', async () => {
    const res = await client.get('/');
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.text()).toContain('/chat/stream');
  });

  it('names a missing parameter in a 422', async () => {
    const res = await client.post('/chat', { json: { message: 'Hello!' } });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ details: [{ param: 'user_id', problem: 'is required' }] });
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
    await client.post('/chat', { json: { user_id: 'ana', message: 'Hello!' } });
    expect(llm.calls[0][0]).toBe('chat');
    expect(llm.calls[0][1]).toBe('Hello!');
    expect(memory.getHistory('ana')).toEqual([
      expect.objectContaining({ role: 'user', content: 'Hello!' }),
      expect.objectContaining({ role: 'assistant', content: 'Hi Ana!' }),
    ]);
    await close();
  });
});
