import 'reflect-metadata';
import { Injectable } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { describe, expect, it } from '@jest/globals';
import { LLM } from '../../../providers/src/llm/llm.js';
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
});
