import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { LLM } from '../../src/llm/llm.js';
import { LlmAbortedError } from '../../src/llm/llm.errors.js';
import type { UsageReport } from '../../src/llm/chat-model.interface.js';
import { collect, rejection } from './llm-test.helpers.js';

function cosine(a: number[], b: number[]): number {
  return a.reduce((sum, v, i) => sum + v * b[i], 0);
}

describe('echo: the offline model, with the network switched off', () => {
  const originalConnect = net.Socket.prototype.connect;
  const originalFetch = globalThis.fetch;
  let attempts = 0;

  beforeAll(() => {
    // Any TCP connection or fetch from here on fails loudly and is counted.
    net.Socket.prototype.connect = function blocked(): never {
      attempts++;
      throw new Error('network access during an offline test');
    };
    globalThis.fetch = () => {
      attempts++;
      return Promise.reject(new Error('network access during an offline test'));
    };
  });
  afterAll(() => {
    net.Socket.prototype.connect = originalConnect;
    globalThis.fetch = originalFetch;
    expect(attempts).toBe(0);
  });

  const llm = new LLM('echo', { env: {} });

  it('needs no key and answers from the message, deterministically', async () => {
    const first = await llm.chat('The weather is nice today');
    expect(first).toBe(
      'You said: "The weather is nice today". This is the first message of our conversation.',
    );
    expect(await llm.chat('The weather is nice today')).toBe(first);
    expect(await llm.chat('Hello there')).toMatch(/^Hello! I am echo, the offline model/);
  });

  it('answers from the history: remembers a name, counts turns, refers back', async () => {
    const history = [
      { role: 'user', content: 'My name is Ada' },
      { role: 'assistant', content: 'Nice to meet you, Ada!' },
      { role: 'user', content: 'I like tea' },
      { role: 'assistant', content: 'Noted.' },
    ];
    const answer = await llm.chat('What is my name?', { history });
    expect(answer).toBe(
      'Your name is Ada. This is message 3 of our conversation; before this you said "I like tea".',
    );
  });

  it('streams word by word, the words making up the whole answer', async () => {
    const whole = await llm.chat('Tell me something about streams');
    const chunks = await collect(
      await llm.chat('Tell me something about streams', { stream: true }),
    );
    expect(chunks.join('')).toBe(whole);
    expect(chunks.length).toBeGreaterThan(5);
    for (const chunk of chunks) expect(chunk.trim().split(/\s+/)).toHaveLength(1);
    expect(await collect(llm.stream('Tell me something about streams'))).toEqual(chunks);
  });

  it('reports usage (one word, one token) and honours maxTokens', async () => {
    const usages: UsageReport[] = [];
    const result = await llm.generate('one two three', {
      maxTokens: 2,
      onUsage: (u) => usages.push(u),
    });
    expect(result.text).toBe('You said:');
    expect(result.finishReason).toBe('length');
    expect(usages).toEqual([
      {
        inputTokens: 3,
        outputTokens: 2,
        totalTokens: 5,
        provider: 'echo',
        model: 'echo',
        finishReason: 'length',
        costUsd: 0,
        steps: 1,
        durationMs: expect.any(Number),
      },
    ]);
  });

  it('is what auto picks when no key is set', async () => {
    const auto = new LLM('auto', { env: { OPENAI_API_KEY: '<API_KEY>' } });
    expect(auto.model).toBe('echo');
    expect(auto.provider).toBe('echo');
    expect(await auto.complete('ping')).toContain('ping');
  });

  it('embeds with deterministic hashed vectors: similar texts are closer', async () => {
    const [cat, cat2, stocks] = await llm.embed([
      'the cat sat on the mat',
      'a cat sat on a mat',
      'quarterly stock market earnings',
    ]);
    expect(cat).toHaveLength(256);
    expect(await llm.embed('the cat sat on the mat')).toEqual(cat);
    expect(cosine(cat, cat2)).toBeGreaterThan(cosine(cat, stocks));
    expect(cosine(cat, cat)).toBeCloseTo(1, 10);
  });

  it('stops streaming when the signal aborts', async () => {
    const slow = new LLM('echo', { env: {}, echoDelayMs: 20 });
    const controller = new AbortController();
    const stream = await slow.chat('one two three four five six seven', {
      stream: true,
      signal: controller.signal,
    });
    const seen: string[] = [];
    const error = await rejection(
      (async () => {
        for await (const chunk of stream) {
          seen.push(chunk);
          if (seen.length === 2) controller.abort();
        }
      })(),
    );
    expect(error).toBeInstanceOf(LlmAbortedError);
    expect(seen).toHaveLength(2);
  });
});
