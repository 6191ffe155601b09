import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { Controller } from '@nestjs/common';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { App, Arg, LLM, RequestSignal, Route, Stream } from 'toolkit';
import { TestClient } from 'toolkit/testing';
import {
  startFakeLlmServer,
  type FakeLlmServer,
} from '../../providers/test/support/fake-llm.server.js';

/** User code that must not change whatever model the configuration names. */
@Controller()
class ChatController {
  constructor(private readonly llm: LLM) {}

  @Route('/chat', { methods: ['POST'] })
  @Stream()
  async *chat(@Arg('message') message: string, @RequestSignal() signal: AbortSignal) {
    yield* await this.llm.chat(message, { stream: true, signal, system: 'Be brief.' });
  }

  @Route('/ask', { methods: ['POST'] })
  async ask(@Arg('message') message: string) {
    return { response: await this.llm.chat(message) };
  }
}

const KEYS = [
  'OPENAI_API_KEY',
  'OPENAI_BASE_URL',
  'ANTHROPIC_API_KEY',
  'ANTHROPIC_BASE_URL',
  'OLLAMA_BASE_URL',
];

describe('an injected LLM behind @Route and @Stream', () => {
  let fake: FakeLlmServer;
  const saved: Record<string, string | undefined> = {};
  const apps: App[] = [];
  const appFor = (model: string, extra: Record<string, unknown> = {}): App => {
    const app = new App({
      controllers: [ChatController],
      logger: false,
      cwd: '/nonexistent',
      config: { llm: { default_model: model, ...extra } },
    });
    apps.push(app);
    return app;
  };

  beforeAll(async () => {
    fake = await startFakeLlmServer();
    for (const key of KEYS) saved[key] = process.env[key];
    process.env.OPENAI_API_KEY = 'sk-test-openai-secret';
    process.env.OPENAI_BASE_URL = fake.openaiBaseURL;
    process.env.ANTHROPIC_API_KEY = 'sk-ant-test-secret';
    process.env.ANTHROPIC_BASE_URL = fake.anthropicBaseURL;
    process.env.OLLAMA_BASE_URL = fake.openaiBaseURL;
  });
  beforeEach(() => fake.reset());
  afterAll(async () => {
    await Promise.all(apps.map((app) => app.close()));
    await fake.close();
    for (const key of KEYS) {
      if (saved[key] === undefined) delete process.env[key];
      else process.env[key] = saved[key];
    }
  });

  it.each([
    ['gpt-4o-mini', 'gpt-4o-mini'],
    ['claude-3-5-haiku-latest', 'claude-3-5-haiku-latest'],
    ['ollama/llama3', 'llama3'],
  ])('streams %s tokens from the provider as SSE events, in order', async (model, wireModel) => {
    fake.script({ kind: 'reply', chunks: ['Hel', 'lo', ' there', '!'] });
    const res = await new TestClient(appFor(model)).post('/chat', { json: { message: 'Hi' } });
    expect(res.statusCode).toBe(200);
    expect(res.events().map((e) => e.data)).toEqual(['Hel', 'lo', ' there', '!']);
    expect(fake.requests).toHaveLength(1);
    expect(fake.requests[0].model).toBe(wireModel);
    expect(fake.requests[0].stream).toBe(true);
  });

  it('streams the offline echo model with no request to any provider', async () => {
    const client = new TestClient(appFor('echo'));
    const res = await client.post('/chat', { json: { message: 'Tell me about green tea' } });
    expect(res.statusCode).toBe(200);
    const words = res.events().map((e) => e.data);
    expect(words.length).toBeGreaterThan(3);
    expect(words.join('')).toMatch(/green tea/i);
    const again = await client.post('/chat', { json: { message: 'Tell me about green tea' } });
    expect(again.text()).toBe(res.text());
    expect(fake.requests).toHaveLength(0);
  });

  it('aborts the upstream request when the SSE client goes away', async () => {
    fake.script({ kind: 'hang-after', chunks: ['one ', 'two '] });
    const server = await appFor('gpt-4o-mini').run({ host: '127.0.0.1', port: 0 });
    const { port } = server.address() as AddressInfo;
    const res = await new Promise<IncomingMessage>((resolve, reject) => {
      const req = httpRequest(
        {
          host: '127.0.0.1',
          port,
          path: '/chat',
          method: 'POST',
          headers: { 'content-type': 'application/json' },
        },
        resolve,
      );
      req.on('error', reject);
      req.end(JSON.stringify({ message: 'Count forever' }));
    });
    await new Promise((resolve) => res.once('data', resolve));
    const [upstream] = await fake.waitForRequests(1);
    res.destroy();
    await upstream.ended;
    expect(upstream.clientClosed).toBe(true);
  });

  it('answers 503 naming the variable when the provider key is missing, without leaking keys', async () => {
    const key = process.env.ANTHROPIC_API_KEY;
    process.env.ANTHROPIC_API_KEY = '<API_KEY>';
    try {
      const res = await new TestClient(appFor('claude-3-5-haiku-latest')).post('/ask', {
        json: { message: 'Hi' },
      });
      expect(res.statusCode).toBe(503);
      expect(res.json<{ error: string }>().error).toContain('ANTHROPIC_API_KEY');
      expect(res.text()).not.toContain('secret');
    } finally {
      process.env.ANTHROPIC_API_KEY = key;
    }
  });

  it('answers 429 with Retry-After when the provider rate-limits', async () => {
    fake.script({
      kind: 'error',
      status: 429,
      message: 'slow down',
      headers: { 'retry-after': '30' },
    });
    const res = await new TestClient(appFor('gpt-4o-mini', { max_retries: 0 })).post('/ask', {
      json: { message: 'Hi' },
    });
    expect(res.statusCode).toBe(429);
    expect(res.headers['retry-after']).toBe('30');
    expect(res.text()).not.toContain('sk-test-openai-secret');
  });

  it('answers 502 when the provider rejects the key, before any stream header', async () => {
    fake.script({ kind: 'error', status: 401, message: 'bad key' });
    const res = await new TestClient(appFor('gpt-4o-mini')).post('/chat', {
      json: { message: 'Hi' },
    });
    expect(res.statusCode).toBe(502);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.text()).not.toContain('sk-test-openai-secret');
  });
});
