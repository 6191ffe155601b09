import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { LLM } from '../../src/llm/llm.js';
import { PromptError } from '../../src/llm/prompts/prompt.error.js';
import { startFakeLlmServer } from '../support/fake-llm.server.js';
import type { FakeLlmServer } from '../support/fake-llm.server.js';
import { rejection } from './llm-test.helpers.js';

describe('prompt files (prompts/*.hbs)', () => {
  let server: FakeLlmServer;
  let dir: string;
  let llm: LLM;

  beforeAll(async () => {
    server = await startFakeLlmServer();
  });
  afterAll(() => server.close());
  beforeEach(() => {
    server.reset();
    dir = mkdtempSync(join(tmpdir(), 'prompts-'));
    writeFileSync(join(dir, 'summarize.hbs'), 'Summarize in {{words}} words:\n{{text}}');
    writeFileSync(join(dir, 'notes.txt'), 'not a prompt');
    llm = new LLM('gpt-4o-mini', {
      apiKey: 'sk-test',
      baseURL: server.openaiBaseURL,
      promptsDir: dir,
    });
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('renders the prompt without HTML escaping and sends it as the user message', async () => {
    server.script({ kind: 'reply', text: 'Short.' });
    const answer = await llm.prompt(
      'summarize',
      { words: 5, text: 'Tom & "Jerry" <3' },
      { system: 'Be brief.' },
    );
    expect(answer).toBe('Short.');
    expect(server.requests[0].body.messages).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'Summarize in 5 words:\nTom & "Jerry" <3' },
    ]);
  });

  it('fails naming a missing variable (strict mode), never rendering an empty string', async () => {
    const error = await rejection(llm.prompt('summarize', { words: 5 }));
    expect(error).toBeInstanceOf(PromptError);
    expect(error.message).toBe('Prompt "summarize" needs the variable "text"');
    expect(server.requests).toHaveLength(0);
  });

  it('names the known prompts when the name is unknown', () => {
    expect(() => llm.renderPrompt('translate')).toThrow(
      /Unknown prompt "translate" in .* \(prompts: summarize\)/,
    );
  });

  it('reads the files once, and again after reloadPrompts()', () => {
    expect(llm.renderPrompt('summarize', { words: 1, text: 'a' })).toBe('Summarize in 1 words:\na');
    writeFileSync(join(dir, 'summarize.hbs'), 'v2 {{text}}');
    expect(llm.renderPrompt('summarize', { words: 1, text: 'a' })).toBe('Summarize in 1 words:\na');
    llm.reloadPrompts();
    expect(llm.renderPrompt('summarize', { text: 'a' })).toBe('v2 a');
  });

  it('names a template that does not compile, and a missing folder', () => {
    writeFileSync(join(dir, 'broken.hbs'), 'Hello {{#if}}');
    expect(() => llm.renderPrompt('summarize', { words: 1, text: 'a' })).toThrow(
      /Prompt file broken.hbs is not a valid template/,
    );
    const nowhere = new LLM('echo', { promptsDir: join(dir, 'missing') });
    expect(() => nowhere.renderPrompt('x')).toThrow(/Cannot read the prompts folder .*missing/);
  });
});
