import { afterEach, describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { configDefaults } from './config-defaults.js';
import { environmentOf } from './config-environment.js';
import { loadConfig } from './config.loader.js';

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

describe('environmentOf', () => {
  it('is the environment loadConfig read, with the .env variables it did not have', () => {
    const cwd = mkdtempSync(join(tmpdir(), 'tk-config-env-'));
    folders.push(cwd);
    writeFileSync(join(cwd, '.env'), 'MISTRAL_API_KEY=from-dotenv\nHOST=dotenv-host\n');
    const env: Record<string, string | undefined> = { HOST: 'given-host' };
    const config = loadConfig({ cwd, env });
    expect(environmentOf(config)).toBe(env);
    expect(environmentOf(config)).toEqual({ HOST: 'given-host', MISTRAL_API_KEY: 'from-dotenv' });
  });

  it('is process.env for a configuration loadConfig did not make', () => {
    expect(environmentOf(configDefaults())).toBe(process.env);
  });

  it('stays out of the configuration itself, which is logged and shown', () => {
    const config = loadConfig({ cwd: '/nonexistent', env: { OPENAI_API_KEY: 'sk-secret' } });
    expect(JSON.stringify(config)).not.toContain('sk-secret');
  });
});
