import { afterAll, describe, expect, it } from '@jest/globals';
import { createTestingApp, MockLLM, TestClient } from 'toolkit/testing';
import { app } from '../app.js';
import { AgentController } from '../src/agent.controller.js';
import { stylesProvider } from '../src/styles.js';

describe('the agent app (offline echo model)', () => {
  const client = new TestClient(app);
  afterAll(() => app.close());

  it('analyses text and serves a repeat from the cache', async () => {
    const body = { text: 'I love this product. Shipping was slow.', analysis_type: 'sentiment' };
    const first = await client.post('/analyze', { json: body });
    expect(first.json()).toEqual({ analysis: expect.any(String), analysis_type: 'sentiment' });
    const second = await client.post('/analyze', { json: body });
    expect(second.headers['x-cache']).toBe('HIT');
  });

  it('refuses an unknown analysis type or style with a 422', async () => {
    const analysis = await client.post('/analyze', { json: { text: 'x', analysis_type: 'magic' } });
    expect(analysis.statusCode).toBe(422);
    const style = await client.post('/generate', { json: { prompt: 'x', style: 'shouting' } });
    expect(style.statusCode).toBe(422);
  });

  it('generates and chats', async () => {
    const generated = await client.post('/generate', {
      json: { prompt: 'A haiku about tea', style: 'creative' },
    });
    expect(generated.json()).toEqual({ content: expect.any(String), style: 'creative' });
    const chat = await client.post('/chat', { json: { user_id: 'u1', message: 'Hi' } });
    expect(chat.json()).toEqual({ response: expect.any(String), tool_calls: [] });
  });

  it('keeps each session its own conversation, whatever user_id it sends', async () => {
    const first = await client.post('/chat', {
      json: { user_id: 'ana', message: 'My name is Ana' },
    });
    // The server issued a session cookie; sending it back continues the same conversation.
    const cookie = String(first.headers['set-cookie']).split(';')[0];
    const again = await client.post('/chat/stream', {
      json: { user_id: 'ana', message: 'What is my name?' },
      headers: { cookie },
    });
    expect(
      again
        .events()
        .map((e) => e.data)
        .join(''),
    ).toMatch(/^Your name is Ana/);
    // Another session (no cookie) sending the same user_id starts from nothing.
    const stranger = await client.post('/chat', {
      json: { user_id: 'ana', message: 'What is my name?' },
    });
    expect(stranger.json<{ response: string }>().response).toMatch(/^You have not told me/);
    const history = await client.get('/history', {
      params: { user_id: 'ana' },
      headers: { cookie },
    });
    expect(history.json<{ messages: unknown[] }>().messages).toHaveLength(4);
  });

  it('serves the chat page and says which model answers', async () => {
    expect((await client.get('/')).text()).toContain('/chat/stream');
    expect((await client.get('/model')).json()).toMatchObject({ model: 'echo', offline: true });
  });
});

describe('AgentController with a MockLLM', () => {
  it('gives the model the instruction of the chosen style', async () => {
    const llm = new MockLLM({ response: 'Dear Sir or Madam' });
    const { client, close } = await createTestingApp({
      controllers: [AgentController],
      providers: [stylesProvider],
      llm,
    });
    const res = await client.post('/generate', {
      json: { prompt: 'Invite the team', style: 'formal' },
    });
    expect(res.json()).toEqual({ content: 'Dear Sir or Madam', style: 'formal' });
    expect(llm.calls).toEqual([
      // Made for the caller's session, so `llm.budget` applies per session.
      [
        'complete',
        'Invite the team',
        { system: expect.stringContaining('formal'), userId: expect.stringMatching(/^session:/) },
      ],
    ]);
    await close();
  });
});
