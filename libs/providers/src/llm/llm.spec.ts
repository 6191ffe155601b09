import { describe, expect, it } from '@jest/globals';
import { ConfigError } from '../errors/config.error.js';
import { ValidationError } from '../errors/validation.error.js';
import type { ChatModel } from './chat-model.interface.js';
import { LLM } from './llm.js';
import { UnknownModelError } from './llm.errors.js';

describe('LLM construction', () => {
  it('rejects unknown model names at once, with the recognised list', () => {
    expect(() => new LLM('gtp-4o', { env: {} })).toThrow(UnknownModelError);
    expect(() => new LLM(['echo', 'nonsense'], { env: {} })).toThrow(/Unknown model "nonsense"/);
  });

  it('does not need the key to be constructed (a missing key answers 503 per call)', () => {
    expect(new LLM('claude-3-5-haiku-latest', { env: {} }).provider).toBe('anthropic');
  });

  it('validates its options in one clear line', () => {
    expect(() => new LLM('echo', { temperature: 3, maxTokens: 0, timeoutMs: 1.5 })).toThrow(
      ConfigError,
    );
    expect(() => new LLM('echo', { temperature: 3 })).toThrow(
      'Invalid configuration: LLM options temperature must be a number between 0 and 2 (got 3) in new LLM()',
    );
    expect(() => new LLM([], {})).toThrow(/must name at least one model/);
  });

  it('validates per-call overrides with a 422', async () => {
    const llm = new LLM('echo', { env: {} });
    await expect(llm.chat('x', { temperature: 5 })).rejects.toBeInstanceOf(ValidationError);
    await expect(llm.complete('x', { maxTokens: -1 })).rejects.toThrow(
      /maxTokens must be a positive integer/,
    );
    await expect(llm.embed([1] as never)).rejects.toBeInstanceOf(ValidationError);
  });

  it('LLM.resolve explains a name', () => {
    expect(LLM.resolve('claude-3-5-haiku-latest', { env: {} })).toMatchObject({
      provider: 'anthropic',
      model: 'claude-3-5-haiku-latest',
      rule: 'claude-*',
      keyVar: 'ANTHROPIC_API_KEY',
      baseURL: 'https://api.anthropic.com',
    });
  });

  it('is a ChatModel with typed chat overloads', async () => {
    const model: ChatModel = new LLM('echo', { env: {} });
    const text: string = await model.chat('hi');
    const stream: AsyncIterable<string> = await model.chat('hi', { stream: true });
    const parts: string[] = [];
    for await (const part of stream) parts.push(part);
    expect(parts.join('')).toBe(text);
  });
});

describe('LLM.fromConfig', () => {
  const settings = {
    default_provider: 'auto',
    default_model: 'auto',
    temperature: 0.2,
    max_tokens: 5,
    timeout: 1.5,
    max_retries: 0,
  };

  it('auto picks echo without keys and applies llm.* settings', async () => {
    const llm = LLM.fromConfig(settings, {});
    expect(llm.model).toBe('echo');
    const result = await llm.generate('one two three four five six seven');
    expect(result.usage?.outputTokens).toBe(5);
    expect(result.finishReason).toBe('length');
  });

  it('auto picks the provider whose key is set; a concrete name is used as is', () => {
    expect(LLM.fromConfig(settings, { ANTHROPIC_API_KEY: 'sk-ant-x' }).model).toBe(
      'claude-3-5-haiku-latest',
    );
    expect(LLM.fromConfig({ ...settings, default_model: 'ollama/llama3' }, {}).provider).toBe(
      'ollama',
    );
  });

  it('routes unknown names to llm.default_provider', () => {
    const llm = LLM.fromConfig(
      { ...settings, default_model: 'my-model', default_provider: 'ollama' },
      {},
    );
    expect(llm.provider).toBe('ollama');
  });

  it('rejects invalid settings clearly', () => {
    expect(() => LLM.fromConfig({ ...settings, temperature: -1 }, {})).toThrow(
      /temperature must be/,
    );
  });
});
