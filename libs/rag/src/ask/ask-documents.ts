import { ValidationError } from '../../../providers/src/internal.js';
import type { SearchResult } from '../indexing/search-result.js';
import type { DocumentScope } from '../stores/document-scope.js';
import { buildAskPrompt, type AskPromptOptions, type AskSource } from './ask-prompt.js';

/** Anything that completes a prompt with a system message: toolkit's `LLM`, `MockLLM`, … */
export interface CompletionModel {
  complete(prompt: string, options?: { system?: string; signal?: AbortSignal }): Promise<string>;
}

/** Anything that searches documents: a `DocumentIndex`. */
export interface DocumentSearch {
  search(query: string, topK?: number, scope?: DocumentScope): Promise<SearchResult[]>;
}

/** Options of {@link askDocuments}. */
export interface AskOptions extends AskPromptOptions {
  /** Chunks retrieved. @default 5 */
  topK?: number;
  /**
   * Whose documents the answer may come from: `{ owner }` for that owner's and the shared ones
   * (see `DocumentScope`). @default the shared documents only
   */
  scope?: DocumentScope;
  /** Aborts the model call (e.g. when the client disconnects). */
  signal?: AbortSignal;
}

/**
 * The answer when no chunk passes the retrieval's relevance floor: the model is not asked, so
 * it cannot answer from unrelated text (or from what it knows besides the documents).
 */
export const NOT_COVERED_ANSWER = 'The documents do not cover this question.';

/** An answer and the sources it was given (cited as `[number]`). */
export interface AskResult {
  answer: string;
  sources: AskSource[];
}

/**
 * Answers a question from the indexed documents: retrieves `topK` chunks, builds the prompt
 * with `buildAskPrompt` and asks the model. When nothing relevant is found (see the relevance
 * floor, `RelevanceFloor`), the answer is {@link NOT_COVERED_ANSWER} with no sources, and the
 * model is not called. An empty question is a 422.
 *
 * @example
 * const { answer, sources } = await askDocuments(index, llm, 'How many vacation days do I get?');
 */
export async function askDocuments(
  index: DocumentSearch,
  model: CompletionModel,
  question: string,
  options: AskOptions = {},
): Promise<AskResult> {
  if (typeof question !== 'string' || question.trim().length === 0) {
    throw new ValidationError([{ param: 'question', problem: 'must be a non-empty string' }]);
  }
  const results = await index.search(question, options.topK ?? 5, options.scope);
  if (results.length === 0) return { answer: NOT_COVERED_ANSWER, sources: [] };
  const { system, prompt, sources } = buildAskPrompt(question, results, options);
  const answer = await model.complete(prompt, { system, signal: options.signal });
  return { answer, sources };
}
