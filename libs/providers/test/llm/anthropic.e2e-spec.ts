import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { EmbeddingsNotSupportedError } from '../../src/llm/llm.errors.js';
import { LLM } from '../../src/llm/llm.js';
import type { UsageReport } from '../../src/llm/chat-model.interface.js';
import { startFakeLlmServer } from '../support/fake-llm.server.js';
import type { FakeLlmServer } from '../support/fake-llm.server.js';
import { collect, fixture, rejection } from './llm-test.helpers.js';

describe('Anthropic through the real @anthropic-ai/sdk', () => {
  let server: FakeLlmServer;
  let llm: LLM;

  beforeAll(async () => {
    server = await startFakeLlmServer();
  });
  afterAll(() => server.close());
  beforeEach(() => {
    server.reset();
    llm = new LLM('claude-3-5-haiku-latest', {
      env: { ANTHROPIC_API_KEY: 'sk-ant-test-key', ANTHROPIC_BASE_URL: server.anthropicBaseURL },
      maxRetries: 0,
    });
  });

  it('answers a plain chat with the key and max_tokens on the wire, and reports usage', async () => {
    server.script({ kind: 'reply', text: 'Bonjour!', usage: { input: 9, output: 2 } });
    const usages: UsageReport[] = [];
    expect(await llm.chat('Say hello in French', { onUsage: (u) => usages.push(u) })).toBe(
      'Bonjour!',
    );
    const [req] = server.requests;
    expect(req.path).toBe('/v1/messages');
    // SDK 1.x sends the key as a bearer token (0.x used x-api-key).
    expect(req.headers.authorization ?? req.headers['x-api-key']).toMatch(/sk-ant-test-key/);
    expect(req.headers['anthropic-version']).toBeDefined();
    expect(req.body).toMatchObject({ model: 'claude-3-5-haiku-latest', max_tokens: 1024 });
    expect(usages).toEqual([
      {
        inputTokens: 9,
        outputTokens: 2,
        totalTokens: 11,
        provider: 'anthropic',
        model: 'claude-3-5-haiku-latest',
        finishReason: 'stop',
        // claude-3-5-haiku: $0.80 / $4 per 1M tokens.
        costUsd: 0.0000152,
        steps: 1,
        durationMs: expect.any(Number),
      },
    ]);
  });

  it("puts the system prompt in Anthropic's system field and history in messages", async () => {
    await llm.chat('What did I say?', {
      system: 'You are terse.',
      history: [
        { role: 'system', content: 'Answer in English.' },
        { role: 'user', content: 'The sky is green' },
        { role: 'assistant', content: 'Noted.' },
      ],
    });
    const { body } = server.requests[0];
    expect(body.system).toBe('You are terse.\n\nAnswer in English.');
    expect(body.messages).toEqual([
      { role: 'user', content: 'The sky is green' },
      { role: 'assistant', content: 'Noted.' },
      { role: 'user', content: 'What did I say?' },
    ]);
  });

  it('streams chunks in order with usage from message_start and message_delta', async () => {
    server.script({
      kind: 'reply',
      chunks: ['One', ' two', ' three'],
      usage: { input: 4, output: 3 },
    });
    const usages: UsageReport[] = [];
    const stream = await llm.chat('Count', { stream: true, onUsage: (u) => usages.push(u) });
    expect(await collect(stream)).toEqual(['One', ' two', ' three']);
    expect(server.requests[0].body.stream).toBe(true);
    expect(usages).toEqual([
      expect.objectContaining({ inputTokens: 4, outputTokens: 3, finishReason: 'stop' }),
    ]);
  });

  it('replays a recorded-format event stream (ping, cache tokens, max_tokens)', async () => {
    server.script({
      kind: 'raw',
      contentType: 'text/event-stream',
      body: fixture('anthropic-messages.chunks.txt'),
    });
    const usages: UsageReport[] = [];
    const chunks = await collect(llm.stream('Hello?', { onUsage: (u) => usages.push(u) }));
    expect(chunks).toEqual(['Hello', ', world', '!']);
    expect(usages[0]).toMatchObject({ inputTokens: 30, outputTokens: 15, finishReason: 'length' });
  });

  it('has no embeddings: a clear 501', async () => {
    const error = await rejection(llm.embed('text'));
    expect(error).toBeInstanceOf(EmbeddingsNotSupportedError);
    expect(error.message).toMatch(/Anthropic has no embeddings API/);
    expect(server.requests).toHaveLength(0);
  });

  it('embeds through another provider when embeddingModel says so', async () => {
    const mixed = new LLM('claude-3-5-haiku-latest', {
      embeddingModel: 'text-embedding-3-large',
      env: {
        ANTHROPIC_API_KEY: 'sk-ant',
        OPENAI_API_KEY: 'sk-openai',
        OPENAI_BASE_URL: server.openaiBaseURL,
      },
    });
    expect(await mixed.embed(['a b', 'c'])).toHaveLength(2);
    expect(server.requests[0].body.model).toBe('text-embedding-3-large');
    expect(server.requests[0].headers.authorization).toBe('Bearer sk-openai');
  });
});
