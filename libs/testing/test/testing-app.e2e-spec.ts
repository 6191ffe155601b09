import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Controller } from '@nestjs/common';
import { Arg, LLM, MemoryService, RequestSignal, Route, Stream } from 'toolkit';
import {
  createTestingApp,
  MockLLM,
  MockMemory,
  testingFixtures,
  type TestingApp,
} from 'toolkit/testing';

/** A chatbot-style controller: memory per user, the LLM gets the history. */
@Controller()
class ChatbotController {
  constructor(
    private readonly llm: LLM,
    private readonly memory: MemoryService,
  ) {}

  @Route('/chat', { methods: ['POST'] })
  async chat(@Arg('user_id') userId: string, @Arg('message') message: string) {
    const memory = this.memory.for(userId);
    const history = await memory.toDictList();
    const response = await this.llm.chat(message, { history });
    await memory.add('user', message);
    await memory.add('assistant', response);
    return { response };
  }

  @Route('/chat/stream', { methods: ['POST'] })
  @Stream()
  async *stream(@Arg('message') message: string, @RequestSignal() signal: AbortSignal) {
    yield* await this.llm.chat(message, { stream: true, signal });
  }
}

describe('createTestingApp with MockLLM and MockMemory', () => {
  const llm = new MockLLM({ response: 'Hi!' });
  const memory = new MockMemory();
  let testing: TestingApp;

  beforeAll(async () => {
    testing = await createTestingApp({ controllers: [ChatbotController], llm, memory });
  });
  afterAll(() => testing.close());

  it('drives the controller and records both mocks calls', async () => {
    const first = await testing.client.post('/chat', { json: { user_id: 'u1', message: 'Hello' } });
    expect(first.json()).toEqual({ response: 'Hi!' });
    const second = await testing.client.post('/chat', {
      json: { user_id: 'u1', message: 'Again' },
    });
    expect(second.statusCode).toBe(200);

    expect(llm.calls).toEqual([
      ['chat', 'Hello', { history: [] }],
      [
        'chat',
        'Again',
        {
          history: [
            expect.objectContaining({ role: 'user', content: 'Hello' }),
            expect.objectContaining({ role: 'assistant', content: 'Hi!' }),
          ],
        },
      ],
    ]);
    expect(memory.calls).toEqual([
      ['getHistory', 'u1', undefined],
      ['addMessage', 'u1', 'user', 'Hello'],
      ['addMessage', 'u1', 'assistant', 'Hi!'],
      ['getHistory', 'u1', undefined],
      ['addMessage', 'u1', 'user', 'Again'],
      ['addMessage', 'u1', 'assistant', 'Hi!'],
    ]);
    expect(memory.getHistory('u1', 1)).toEqual([
      expect.objectContaining({ role: 'assistant', content: 'Hi!' }),
    ]);
  });

  it('streams the mock response one character at a time', async () => {
    const res = await testing.client.post('/chat/stream', { json: { message: 'x' } });
    expect(res.events().map((e) => e.data)).toEqual(['H', 'i', '!']);
  });

  it('keeps the 422 and error shapes of a real app', async () => {
    const res = await testing.client.post('/chat', { json: { message: 'no user' } });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ details: [{ param: 'user_id', problem: 'is required' }] });
  });
});

describe('testingFixtures', () => {
  it('gives fresh mocks and a client on the mock app', async () => {
    const fixtures = testingFixtures();
    expect(fixtures.mockLlm()).not.toBe(fixtures.mockLlm());
    expect(fixtures.mockLlm().defaultResponse).toBe('Mock response');
    expect(fixtures.mockMemory().calls).toEqual([]);
    const client = fixtures.testClient();
    expect((await client.get('/health')).json()).toEqual({ status: 'healthy' });
    const app = fixtures.testApp();
    expect((await app.init()).getHttpServer()).toBeDefined();
    await app.close();
  });
});
