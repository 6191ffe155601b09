import { describe, expect, it } from '@jest/globals';
import { isKeySet, resolveDefaultModel } from './default-model.js';
import { LLM } from './llm.js';

describe('isKeySet', () => {
  it.each(['<API_KEY>', 'your-api-key-here', 'your_key', 'xxxx', 'changeme', 'sk-...', '', '   '])(
    'treats placeholder %p as unset',
    (value) => expect(isKeySet(value)).toBe(false),
  );
  it('accepts real-looking keys and rejects undefined', () => {
    expect(isKeySet('sk-proj-abc123')).toBe(true);
    expect(isKeySet(undefined)).toBe(false);
  });
});

describe('resolveDefaultModel', () => {
  it('returns a concrete name as is', () => {
    expect(resolveDefaultModel('claude-3-opus', {})).toEqual({
      model: 'claude-3-opus',
      offline: false,
      reason: 'from llm.default_model',
    });
    expect(resolveDefaultModel('echo', {}).offline).toBe(true);
  });

  it('auto picks the first provider with a real key, in table order', () => {
    expect(resolveDefaultModel('auto', { OPENAI_API_KEY: 'sk-1' }).model).toBe('gpt-4o-mini');
    expect(
      resolveDefaultModel('auto', { OPENAI_API_KEY: '<API_KEY>', ANTHROPIC_API_KEY: 'k' }),
    ).toEqual({
      model: 'claude-3-5-haiku-latest',
      offline: false,
      reason: 'anthropic, ANTHROPIC_API_KEY set',
    });
    expect(resolveDefaultModel('auto', { XAI_API_KEY: 'k' }).model).toBe('grok-2-latest');
  });

  it('auto falls back to the offline echo model and says why', () => {
    const choice = resolveDefaultModel('auto', {});
    expect(choice).toMatchObject({ model: 'echo', offline: true });
    expect(choice.reason).toContain('OPENAI_API_KEY, ANTHROPIC_API_KEY, GEMINI_API_KEY');
  });
});

describe('llm.default_provider chooses the provider of auto', () => {
  const bothKeys = { OPENAI_API_KEY: 'sk-1', ANTHROPIC_API_KEY: 'sk-ant-1' };

  it('prefers the configured provider when its key is set', () => {
    expect(resolveDefaultModel('auto', bothKeys, 'anthropic')).toEqual({
      model: 'claude-3-5-haiku-latest',
      offline: false,
      reason: 'anthropic from llm.default_provider, ANTHROPIC_API_KEY set',
    });
    expect(resolveDefaultModel('auto', bothKeys, 'auto').model).toBe('gpt-4o-mini');
  });

  it('falls back to the table order when its key is missing or a placeholder', () => {
    expect(resolveDefaultModel('auto', { OPENAI_API_KEY: 'sk-1' }, 'anthropic').model).toBe(
      'gpt-4o-mini',
    );
    expect(
      resolveDefaultModel('auto', { ANTHROPIC_API_KEY: '<API_KEY>' }, 'anthropic'),
    ).toMatchObject({ model: 'echo', offline: true });
  });

  it('LLM.fromConfig and LLM.resolve("auto") use it', () => {
    const llm = LLM.fromConfig({ default_provider: 'anthropic' }, bothKeys);
    expect(llm.provider).toBe('anthropic');
    expect(LLM.fromConfig({}, bothKeys).provider).toBe('openai');
    expect(LLM.resolve('auto', { env: bothKeys })).toMatchObject({
      provider: 'openai',
      model: 'gpt-4o-mini',
    });
    expect(LLM.resolve('auto', { env: bothKeys, defaultProvider: 'anthropic' })).toMatchObject({
      provider: 'anthropic',
    });
    expect(LLM.resolve(' auto ', { env: {} })).toMatchObject({ provider: 'echo', model: 'echo' });
  });
});
