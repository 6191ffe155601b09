import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Controller } from '@nestjs/common';
import { App, Arg, LLM, Route } from 'toolkit';
import type { UsageReport } from 'toolkit/providers';
import { TestClient } from 'toolkit/testing';
import {
  startFakeLlmServer,
  type FakeLlmServer,
} from '../../providers/test/support/fake-llm.server.js';

@Controller()
class PaidController {
  constructor(private readonly llm: LLM) {}

  @Route('/ask', { methods: ['POST'] })
  async ask(@Arg('user') user: string, @Arg('message') message: string) {
    let usage: UsageReport | undefined;
    const answer = await this.llm.chat(message, { userId: user, onUsage: (u) => (usage = u) });
    return { answer, cost_usd: usage?.costUsd };
  }
}

describe('llm.budget.per_user_usd_per_day on a route', () => {
  let fake: FakeLlmServer;
  let app: App;

  beforeAll(async () => {
    fake = await startFakeLlmServer();
    app = new App({
      controllers: [PaidController],
      logger: false,
      cwd: '/nonexistent',
      config: {
        llm: {
          default_model: 'gpt-4o-mini',
          prices: { 'gpt-4o-mini': { input: 100_000, output: 0 } },
          budget: { per_user_usd_per_day: 1 },
        },
      },
    });
    process.env.OPENAI_API_KEY = 'sk-test';
    process.env.OPENAI_BASE_URL = fake.openaiBaseURL;
  });
  afterAll(async () => {
    await app.close();
    await fake.close();
    delete process.env.OPENAI_API_KEY;
    delete process.env.OPENAI_BASE_URL;
  });

  it('prices calls with llm.prices and answers 429 with Retry-After once a user spent the budget', async () => {
    // 10 input tokens at $100,000 per 1M tokens: $1 per call.
    fake.script({ kind: 'reply', text: 'one', usage: { input: 10, output: 0 } });
    const client = new TestClient(app);
    const first = await client.post('/ask', { json: { user: 'ada', message: 'hi' } });
    expect(first.json()).toEqual({ answer: 'one', cost_usd: 1 });
    const refused = await client.post('/ask', { json: { user: 'ada', message: 'again' } });
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({ error: expect.stringMatching(/daily LLM budget of \$1/) });
    const retryAfter = Number(refused.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(86_400);
    expect(fake.requests).toHaveLength(1);
    const other = await client.post('/ask', { json: { user: 'bob', message: 'hi' } });
    expect(other.statusCode).toBe(200);
  });
});
