import { describe, expect, it } from '@jest/globals';
import { UnknownModelError } from '../llm.errors.js';
import { recognisedPatterns, resolveModel } from './resolve-model.js';

function unknown(name: string, options = {}): UnknownModelError {
  try {
    resolveModel(name, options);
  } catch (error) {
    if (error instanceof UnknownModelError) return error;
    throw error;
  }
  throw new Error(`${name} resolved`);
}

describe('resolveModel: the detection table', () => {
  it.each([
    ['gpt-4o-mini', 'openai', 'gpt-*', 'OPENAI_API_KEY', 'gpt-4o-mini'],
    ['gpt-5', 'openai', 'gpt-5*', 'OPENAI_API_KEY', 'gpt-5'],
    ['o1', 'openai', 'o1*', 'OPENAI_API_KEY', 'o1'],
    ['o1-mini', 'openai', 'o1*', 'OPENAI_API_KEY', 'o1-mini'],
    ['o3-mini', 'openai', 'o3*', 'OPENAI_API_KEY', 'o3-mini'],
    ['o4-mini', 'openai', 'o4*', 'OPENAI_API_KEY', 'o4-mini'],
    ['chatgpt-4o-latest', 'openai', 'chatgpt-*', 'OPENAI_API_KEY', 'chatgpt-4o-latest'],
    [
      'text-embedding-3-small',
      'openai',
      'text-embedding-*',
      'OPENAI_API_KEY',
      'text-embedding-3-small',
    ],
    [
      'claude-3-5-haiku-latest',
      'anthropic',
      'claude-*',
      'ANTHROPIC_API_KEY',
      'claude-3-5-haiku-latest',
    ],
    ['gemini-2.0-flash', 'gemini', 'gemini-*', 'GEMINI_API_KEY', 'gemini-2.0-flash'],
    ['mistral-small-latest', 'mistral', 'mistral-*', 'MISTRAL_API_KEY', 'mistral-small-latest'],
    ['codestral-latest', 'mistral', 'codestral-*', 'MISTRAL_API_KEY', 'codestral-latest'],
    ['deepseek-chat', 'deepseek', 'deepseek-*', 'DEEPSEEK_API_KEY', 'deepseek-chat'],
    ['grok-2-latest', 'grok', 'grok-*', 'XAI_API_KEY', 'grok-2-latest'],
    ['ollama/llama3', 'ollama', 'ollama/<model>', null, 'llama3'],
    ['ollama/library/qwen2:7b', 'ollama', 'ollama/<model>', null, 'library/qwen2:7b'],
    ['echo', 'echo', 'echo', null, 'echo'],
    ['GPT-4o', 'openai', 'gpt-*', 'OPENAI_API_KEY', 'GPT-4o'],
  ])('%s → %s by rule %s', (name, provider, rule, keyVar, model) => {
    expect(resolveModel(name, { env: {} })).toMatchObject({ provider, rule, keyVar, model });
  });

  it('an explicit provider/model always wins over the name patterns', () => {
    expect(resolveModel('openai/claude-lookalike', { env: {} })).toMatchObject({
      provider: 'openai',
      model: 'claude-lookalike',
      rule: 'openai/<model>',
    });
    expect(resolveModel('anthropic/gpt-4o', { env: {} }).provider).toBe('anthropic');
    expect(resolveModel('xai/grok-beta', { env: {} }).provider).toBe('grok');
    expect(resolveModel('openai/o3-mini', { env: {} }).reasoning).toBe(true);
  });

  it('gives each family its base URL, overridable by its variable', () => {
    expect(resolveModel('gpt-4o', { env: {} }).baseURL).toBe('https://api.openai.com/v1');
    expect(resolveModel('gemini-1.5-pro', { env: {} }).baseURL).toBe(
      'https://generativelanguage.googleapis.com/v1beta/openai/',
    );
    expect(resolveModel('ollama/llama3', { env: {} }).baseURL).toBe('http://127.0.0.1:11434/v1');
    expect(
      resolveModel('ollama/llama3', { env: { OLLAMA_BASE_URL: 'http://gpu-box:11434/v1' } })
        .baseURL,
    ).toBe('http://gpu-box:11434/v1');
    expect(
      resolveModel('claude-3-opus', { env: { ANTHROPIC_BASE_URL: 'http://proxy' } }),
    ).toMatchObject({
      baseURL: 'http://proxy',
      baseURLVar: 'ANTHROPIC_BASE_URL',
    });
    expect(resolveModel('echo', { env: {} }).baseURL).toBeNull();
  });

  it('unknown names: a clear error listing what is recognised and the closest prefix', () => {
    const error = unknown('gtp-4o');
    expect(error.statusCode).toBe(500);
    expect(error.suggestion).toBe('gpt-');
    expect(error.message).toContain('Unknown model "gtp-4o"');
    expect(error.message).toContain('Did you mean a name starting with "gpt-"?');
    for (const pattern of ['gpt-*', 'claude-*', 'gemini-*', 'ollama/<model>', 'echo']) {
      expect(error.message).toContain(pattern);
    }
    expect(error.knownPrefixes).toEqual(recognisedPatterns());
    expect(unknown('cluade-3-opus').suggestion).toBe('claude-');
    expect(unknown('olama/llama3').suggestion).toBe('ollama/');
    expect(unknown('llama3').suggestion).toBe('ollama/');
    expect(unknown('my-model').suggestion).toBeUndefined();
  });

  it('names the problem for empty names, empty models and unknown providers', () => {
    expect(unknown('').message).toMatch(/the model name is empty/);
    expect(unknown('openai/').message).toMatch(/nothing follows "openai\/"/);
    expect(unknown('acme/model-1').message).toMatch(/"acme" is not a known provider/);
  });

  it('llm.default_provider catches names no rule knows', () => {
    expect(resolveModel('my-finetune', { env: {}, defaultProvider: 'ollama' })).toMatchObject({
      provider: 'ollama',
      model: 'my-finetune',
      rule: 'llm.default_provider',
    });
    expect(resolveModel('gpt-4o', { env: {}, defaultProvider: 'ollama' }).provider).toBe('openai');
    expect(() => resolveModel('my-finetune', { env: {}, defaultProvider: 'auto' })).toThrow(
      UnknownModelError,
    );
    expect(unknown('my-finetune', { env: {}, defaultProvider: 'nope' }).message).toMatch(
      /llm.default_provider "nope" is not a provider/,
    );
  });
});
