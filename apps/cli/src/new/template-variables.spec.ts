import { describe, expect, it } from '@jest/globals';
import { extraEnvLines, templateVariables } from './template-variables.js';

describe('template variables', () => {
  it('gives api projects a fresh 32-byte hex key, open CORS and a rate limit', () => {
    const [keys, cors, limit] = extraEnvLines('api');
    expect(keys).toMatch(/^API_KEYS=[0-9a-f]{64}$/);
    expect(extraEnvLines('api')[0]).not.toBe(keys);
    expect([cors, limit]).toEqual(['CORS_ORIGINS=*', 'RATE_LIMIT_PER_MINUTE=60']);
  });

  it('gives the session templates a fresh session secret', () => {
    for (const template of ['chatbot', 'rag', 'agent'] as const) {
      const [secret, ...rest] = extraEnvLines(template);
      expect(secret).toMatch(/^TOOLKIT_APP_SESSION_SECRET=[0-9a-f]{64}$/);
      expect(rest).toEqual([]);
      expect(extraEnvLines(template)[0]).not.toBe(secret);
    }
  });

  it('carries the name, provider key variable and dependencies', () => {
    const deps = { dependencies: { toolkit: '^1.0.0' }, devDependencies: {} };
    expect(templateVariables('bot', 'api', deps, 'toolkit', { newKey: () => 'k' })).toEqual({
      name: 'bot',
      description: expect.stringContaining('REST API'),
      keyVar: 'OPENAI_API_KEY',
      providerLabel: 'OpenAI',
      ...deps,
      extraEnv: ['API_KEYS=k', 'CORS_ORIGINS=*', 'RATE_LIMIT_PER_MINUTE=60'],
      toolkitName: 'toolkit',
      platform: 'express',
      fastify: false,
    });
  });

  it('says fastify when the project runs on it', () => {
    const deps = { dependencies: {}, devDependencies: {} };
    const chosen = templateVariables('bot', 'chatbot', deps, 'toolkit', { platform: 'fastify' });
    expect(chosen).toMatchObject({ platform: 'fastify', fastify: true });
  });
});
