import { ConfigError } from '../../../providers/src/internal.js';
import type { DocumentPage } from '../document.types.js';
import type { Chunk, ChunkingOptions } from './chunk.types.js';
import { findBoundaries, firstInRange, lastInRange, upperBound } from './text-boundaries.js';
import { isWhitespace } from './whitespace.js';

/** Characters per token when `unit: 'tokens'`. */
export const CHARS_PER_TOKEN = 4;

/** A chunk may end at a paragraph break once it is at least this full. */
const PARAGRAPH_FILL = 0.5;
/** … or at a sentence end once it is at least this full; else at a word boundary. */
const SENTENCE_FILL = 0.3;

/** What {@link chunkText} cuts: a document's text, its id and (PDF) its pages. */
export interface ChunkSource {
  documentId: string;
  text: string;
  pages?: readonly DocumentPage[];
}

/**
 * Cuts a document's text into overlapping chunks of at most `size`. Each chunk ends at the last
 * paragraph break that keeps it at least half full, else at the last sentence end, else at a word
 * boundary (a word longer than `size` is cut). The next chunk repeats up to `overlap` of the end
 * of the previous one, starting at a sentence boundary (else a word boundary). Chunks carry their
 * document id, index, character offsets and, for PDFs, page numbers.
 *
 * @example
 * const chunks = chunkText({ documentId: 'a1', text, pages }, { size: 800, overlap: 100 });
 * chunks[0]; // { id: 'a1:0', documentId: 'a1', index: 0, text: '…', start: 0, end: 781, page: 1 }
 */
export function chunkText(source: ChunkSource, options: ChunkingOptions = {}): Chunk[] {
  const { size, overlap } = resolveChunking(options);
  const { text } = source;
  const bounds = findBoundaries(text);
  const pageStarts = source.pages?.map((page) => page.start) ?? [];
  const chunks: Chunk[] = [];
  let start = skipSpace(text, 0);
  let frontier = 0;
  const textEnd = trimEnd(text, 0, text.length);
  while (start < textEnd) {
    const limit = start + size;
    // A boundary up to the whitespace run at `limit` still leaves the trimmed chunk within size.
    const reach = skipSpace(text, limit);
    // Cut past the first character the previous chunk left out, so each chunk adds new text.
    const floor = (fill: number) => Math.max(start + size * fill, frontier);
    const cut =
      textEnd <= limit
        ? textEnd
        : (lastInRange(bounds.paragraphs, floor(PARAGRAPH_FILL), reach) ??
          lastInRange(bounds.sentences, floor(SENTENCE_FILL), reach) ??
          lastInRange(bounds.words, floor(0), reach) ??
          limit);
    const end = trimEnd(text, start, cut);
    chunks.push(makeChunk(source, pageStarts, chunks.length, start, end));
    frontier = skipSpace(text, end);
    if (frontier >= textEnd) break;
    let next = cut;
    if (overlap > 0) {
      const from = Math.max(start + 1, end - overlap);
      next =
        firstInRange(bounds.sentences, from, end) ?? firstInRange(bounds.words, from, end) ?? cut;
    }
    start = skipSpace(text, next);
    // An overlap so long that the next chunk could not reach past it is dropped.
    if (start + size <= frontier) start = frontier;
  }
  return chunks;
}

/** Validated chunk size and overlap, in characters. */
export function resolveChunking(options: ChunkingOptions): { size: number; overlap: number } {
  const unit = options.unit ?? 'characters';
  if (unit !== 'characters' && unit !== 'tokens') {
    throw new ConfigError(
      'chunking.unit',
      `must be "characters" or "tokens" (got "${String(unit)}")`,
      'chunking options',
    );
  }
  const size = options.size ?? 1000;
  const overlap = options.overlap ?? 150;
  if (!Number.isInteger(size) || size < 1) {
    throw new ConfigError(
      'chunking.size',
      `must be a positive integer (got ${size})`,
      'chunking options',
    );
  }
  if (!Number.isInteger(overlap) || overlap < 0 || overlap >= size) {
    throw new ConfigError(
      'chunking.overlap',
      `must be an integer from 0 to size - 1 (got ${overlap} with size ${size})`,
      'chunking options',
    );
  }
  const scale = unit === 'tokens' ? CHARS_PER_TOKEN : 1;
  return { size: size * scale, overlap: overlap * scale };
}

function makeChunk(
  source: ChunkSource,
  pageStarts: readonly number[],
  index: number,
  start: number,
  end: number,
): Chunk {
  const chunk: Chunk = {
    id: `${source.documentId}:${index}`,
    documentId: source.documentId,
    index,
    text: source.text.slice(start, end),
    start,
    end,
  };
  if (source.pages && source.pages.length > 0) {
    const first = source.pages[Math.max(0, upperBound(pageStarts, start) - 1)].number;
    const last = source.pages[Math.max(0, upperBound(pageStarts, end - 1) - 1)].number;
    chunk.page = first;
    if (last !== first) chunk.pageEnd = last;
  }
  return chunk;
}

function skipSpace(text: string, from: number): number {
  let i = from;
  while (i < text.length && isWhitespace(text.charCodeAt(i))) i += 1;
  return i;
}

function trimEnd(text: string, start: number, end: number): number {
  let i = end;
  while (i > start + 1 && isWhitespace(text.charCodeAt(i - 1))) i -= 1;
  return i;
}
