import { describe, expect, it } from '@jest/globals';
import { ValidationError } from '../../../providers/src/errors/validation.error.js';
import type { SearchResult } from '../indexing/search-result.js';
import { askDocuments, NOT_COVERED_ANSWER, type CompletionModel } from './ask-documents.js';
import { ASK_SYSTEM_PROMPT, buildAskPrompt } from './ask-prompt.js';

const result = (n: number, filename: string, text: string, page?: number): SearchResult => ({
  text,
  score: 1 / n,
  document: { id: `doc${n}`, filename, type: page ? 'pdf' : 'txt' },
  chunk: { id: `doc${n}:0`, index: 0, start: 0, end: text.length, ...(page && { page }) },
  mode: 'hybrid',
});

const RESULTS = [
  result(1, 'handbook.pdf', 'Employees receive 25 vacation days.', 3),
  result(2, 'faq.txt', 'Unused days expire on March 31.'),
];

/** A completion model that records its calls and answers with a fixed text. */
function recordingModel(answer = 'You get 25 days [1].') {
  const calls: { prompt: string; options?: { system?: string } }[] = [];
  const model: CompletionModel = {
    complete(prompt, options) {
      calls.push({ prompt, options });
      return Promise.resolve(answer);
    },
  };
  return { model, calls };
}

describe('buildAskPrompt', () => {
  it('numbers the retrieved chunks and asks for citations', () => {
    const { system, prompt, sources } = buildAskPrompt('  How many vacation days? ', RESULTS);
    expect(system).toBe(ASK_SYSTEM_PROMPT);
    expect(system).toContain('[1] or [2][3]');
    expect(prompt).toBe(
      'Sources:\n\n' +
        '[1] handbook.pdf (page 3)\nEmployees receive 25 vacation days.\n\n' +
        '[2] faq.txt\nUnused days expire on March 31.\n\n' +
        'Question: How many vacation days?\n\nAnswer, citing the sources by number:',
    );
    expect(sources.map((s) => [s.number, s.document.filename, s.score])).toEqual([
      [1, 'handbook.pdf', 1],
      [2, 'faq.txt', 0.5],
    ]);
  });

  it('keeps within the context budget (always at least one source) and says when nothing was found', () => {
    expect(buildAskPrompt('q', RESULTS, { maxContextChars: 40 }).sources).toHaveLength(1);
    expect(buildAskPrompt('q', RESULTS, { maxContextChars: 1 }).sources).toHaveLength(1);
    expect(buildAskPrompt('q', []).prompt).toContain('No sources were found for this question.');
    expect(buildAskPrompt('q', [], { system: 'Be brief.' }).system).toBe('Be brief.');
  });
});

describe('askDocuments', () => {
  it('retrieves, prompts the model with the system message and returns the sources', async () => {
    const searches: [string, number | undefined][] = [];
    const index = {
      search: (query: string, topK?: number) => {
        searches.push([query, topK]);
        return Promise.resolve(RESULTS);
      },
    };
    const { model, calls } = recordingModel();
    const { answer, sources } = await askDocuments(index, model, 'How many vacation days?', {
      topK: 2,
    });
    expect(answer).toBe('You get 25 days [1].');
    expect(sources).toHaveLength(2);
    expect(searches).toEqual([['How many vacation days?', 2]]);
    expect(calls).toHaveLength(1);
    expect(calls[0].options?.system).toBe(ASK_SYSTEM_PROMPT);
    expect(calls[0].prompt).toContain('[2] faq.txt');
  });

  it('says the documents do not cover a question nothing relevant was found for, without the model', async () => {
    const { model, calls } = recordingModel();
    const index = { search: () => Promise.resolve([]) };
    expect(await askDocuments(index, model, 'Who painted the Mona Lisa?')).toEqual({
      answer: NOT_COVERED_ANSWER,
      sources: [],
    });
    expect(NOT_COVERED_ANSWER).toBe('The documents do not cover this question.');
    expect(calls).toEqual([]);
  });

  it('refuses an empty question with a 422 before searching', async () => {
    const { model, calls } = recordingModel();
    const index = { search: () => Promise.reject(new Error('must not search')) };
    const error = await askDocuments(index, model, '  ').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).message).toBe(
      'Invalid parameters: question must be a non-empty string',
    );
    expect(calls).toEqual([]);
  });
});
