import 'reflect-metadata';
import { Injectable } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { afterEach, describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LLM } from '../../../providers/src/llm/llm.js';
import { loadConfig } from '../config/config.loader.js';
import type { ToolkitConfig } from '../config/toolkit-config.interface.js';
import { TOOLKIT_CONFIG } from '../toolkit.constants.js';
import { llmProvider } from './llm.providers.js';

@Injectable()
class Greeter {
  constructor(readonly llm: LLM) {}
}

function config(llm: Partial<ToolkitConfig['llm']>): ToolkitConfig {
  return {
    llm: {
      default_provider: 'auto',
      default_model: 'echo',
      temperature: 0.7,
      max_tokens: 3,
      timeout: 60,
      max_retries: 2,
      ...llm,
    },
  } as ToolkitConfig;
}

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

/** A project folder whose `.env` holds `dotenv`. */
function project(dotenv: string): string {
  const folder = mkdtempSync(join(tmpdir(), 'tk-llm-env-'));
  folders.push(folder);
  writeFileSync(join(folder, '.env'), dotenv);
  return folder;
}

async function injectedLlm(resolved: ToolkitConfig): Promise<LLM> {
  const moduleRef = await Test.createTestingModule({
    providers: [{ provide: TOOLKIT_CONFIG, useValue: resolved }, llmProvider, Greeter],
  }).compile();
  const { llm } = moduleRef.get(Greeter);
  await moduleRef.close();
  return llm;
}

describe('llmProvider', () => {
  it('injects an LLM built from llm.* by class', async () => {
    const moduleRef = await Test.createTestingModule({
      providers: [{ provide: TOOLKIT_CONFIG, useValue: config({}) }, llmProvider, Greeter],
    }).compile();
    const { llm } = moduleRef.get(Greeter);
    expect(llm).toBeInstanceOf(LLM);
    expect(llm.model).toBe('echo');
    expect((await llm.generate('one two three four')).finishReason).toBe('length');
    await moduleRef.close();
  });

  it('can be overridden by a stand-in', async () => {
    const stand = { model: 'mock-model' };
    const moduleRef = await Test.createTestingModule({
      providers: [{ provide: TOOLKIT_CONFIG, useValue: config({}) }, llmProvider, Greeter],
    })
      .overrideProvider(LLM)
      .useValue(stand)
      .compile();
    expect(moduleRef.get(Greeter).llm).toBe(stand);
    await moduleRef.close();
  });

  it('fails module start-up on an unknown model name', async () => {
    const builder = Test.createTestingModule({
      providers: [
        { provide: TOOLKIT_CONFIG, useValue: config({ default_model: 'gtp-4o' }) },
        llmProvider,
      ],
    });
    await expect(builder.compile()).rejects.toThrow(/Unknown model "gtp-4o"/);
  });

  it('takes its keys from the environment the configuration was loaded from, .env included', async () => {
    const env: Record<string, string | undefined> = {};
    const resolved = loadConfig({ cwd: project('ANTHROPIC_API_KEY=sk-ant-from-dotenv\n'), env });
    const llm = await injectedLlm(resolved);
    expect(llm.provider).toBe('anthropic');
    expect(env.ANTHROPIC_API_KEY).toBe('sk-ant-from-dotenv');
  });

  it('ignores keys of process.env that the configuration was not loaded from', async () => {
    const saved = process.env.OPENAI_API_KEY;
    process.env.OPENAI_API_KEY = 'sk-only-in-process-env';
    try {
      const llm = await injectedLlm(loadConfig({ cwd: project(''), env: {} }));
      expect(llm.model).toBe('echo');
    } finally {
      if (saved === undefined) delete process.env.OPENAI_API_KEY;
      else process.env.OPENAI_API_KEY = saved;
    }
  });
});
