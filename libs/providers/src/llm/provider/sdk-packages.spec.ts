import { describe, expect, it } from '@jest/globals';
import { MissingSdkError } from '../llm.errors.js';
import { isPackageInstalled, missingSdk } from './sdk-packages.js';

describe('SDK packages (optional peers)', () => {
  it('names the package a protocol needs when it is not installed, nothing for echo', () => {
    const none = (): boolean => false;
    expect(missingSdk('anthropic', none)).toBe('@anthropic-ai/sdk');
    expect(missingSdk('openai', none)).toBe('openai');
    expect(missingSdk('echo', none)).toBeUndefined();
    expect(missingSdk('anthropic', () => true)).toBeUndefined();
  });

  it('finds installed packages from toolkit and not made-up ones', () => {
    expect(isPackageInstalled('openai')).toBe(true);
    expect(isPackageInstalled('@anthropic-ai/sdk')).toBe(true);
    expect(isPackageInstalled('toolkit-no-such-sdk')).toBe(false);
  });

  it('is a 503 whose message has the install command and whose body names the package', () => {
    const error = new MissingSdkError(
      { provider: 'Anthropic', model: 'claude-sonnet-4-5', keyVar: 'ANTHROPIC_API_KEY' },
      '@anthropic-ai/sdk',
    );
    expect(error.statusCode).toBe(503);
    expect(error.message).toBe(
      'Anthropic models need the @anthropic-ai/sdk package, which is not installed: run npm install @anthropic-ai/sdk to use model "claude-sonnet-4-5"',
    );
  });
});
