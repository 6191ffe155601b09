import type { SearchResult } from '../indexing/search-result.js';

/** A numbered source as the model sees it and the client gets it back. */
export interface AskSource {
  /** The number the answer cites, `[1]` for the first. */
  number: number;
  document: SearchResult['document'];
  chunk: SearchResult['chunk'];
  score: number;
  text: string;
}

/** The messages to send to the model, and the sources they number. */
export interface AskPrompt {
  system: string;
  prompt: string;
  sources: AskSource[];
}

/** Options of {@link buildAskPrompt}. */
export interface AskPromptOptions {
  /** Longest total source text put in the prompt; later sources are dropped. @default 12000 */
  maxContextChars?: number;
  /** Replaces the default system instructions. */
  system?: string;
}

/** The default system prompt: answer from the numbered sources only, citing them. */
export const ASK_SYSTEM_PROMPT = [
  'You answer questions using only the numbered sources provided with the question.',
  'Cite the sources that support each statement with their numbers in square brackets, such as [1] or [2][3].',
  'If the sources do not contain the answer, say that you do not know; never invent facts or sources.',
].join(' ');

/**
 * Builds the retrieval-augmented prompt: the retrieved chunks, numbered `[1]`, `[2]`, … with
 * their document name (and page), then the question; the system prompt tells the model to
 * answer only from them and to cite their numbers.
 *
 * @example
 * const { system, prompt, sources } = buildAskPrompt(question, await index.search(question, 5));
 * const answer = await llm.complete(prompt, { system });
 */
export function buildAskPrompt(
  question: string,
  results: readonly SearchResult[],
  options: AskPromptOptions = {},
): AskPrompt {
  const budget = options.maxContextChars ?? 12000;
  const sources: AskSource[] = [];
  let used = 0;
  for (const result of results) {
    if (sources.length > 0 && used + result.text.length > budget) break;
    used += result.text.length;
    const { text, score, document, chunk } = result;
    sources.push({ number: sources.length + 1, document, chunk, score, text });
  }
  const context =
    sources.length === 0
      ? 'No sources were found for this question.'
      : sources.map((s) => `[${s.number}] ${label(s)}\n${s.text}`).join('\n\n');
  return {
    system: options.system ?? ASK_SYSTEM_PROMPT,
    prompt: `Sources:\n\n${context}\n\nQuestion: ${question.trim()}\n\nAnswer, citing the sources by number:`,
    sources,
  };
}

function label(source: AskSource): string {
  const { page, pageEnd } = source.chunk;
  if (page === undefined) return source.document.filename;
  return `${source.document.filename} (page ${pageEnd === undefined ? page : `${page}-${pageEnd}`})`;
}
