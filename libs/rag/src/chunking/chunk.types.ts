/**
 * One piece of a document as it is indexed and retrieved. Offsets point into the document's
 * extracted text (`LoadedDocument.text`), so `text === documentText.slice(start, end)`.
 */
export interface Chunk {
  /** `<documentId>:<index>`, unique across the index. */
  id: string;
  /** The document it belongs to. */
  documentId: string;
  /** 0-based position among the document's chunks. */
  index: number;
  /** The chunk's text. */
  text: string;
  /** Offset of the first character in the document text. */
  start: number;
  /** Offset just past the last character. */
  end: number;
  /** PDF only: the page the chunk starts on (1-based). */
  page?: number;
  /** PDF only: the page the chunk ends on, when it differs from `page`. */
  pageEnd?: number;
}

/** How text is measured by {@link ChunkingOptions}. */
export type ChunkUnit = 'characters' | 'tokens';

/**
 * How documents are cut into chunks.
 *
 * @example
 * { size: 800, overlap: 100 }                  // characters
 * { size: 256, overlap: 32, unit: 'tokens' }  // ≈ 1024 / 128 characters
 */
export interface ChunkingOptions {
  /** Largest chunk, in `unit`s. @default 1000 */
  size?: number;
  /**
   * How much of the end of one chunk the next one repeats, at most, in `unit`s; the repeated
   * part starts on a sentence (else word) boundary. Must be smaller than `size`. @default 150
   */
  overlap?: number;
  /**
   * `characters`, or approximate `tokens`: one token counts as 4 characters, the usual average
   * for English text with OpenAI-style tokenizers (no tokenizer is loaded). @default 'characters'
   */
  unit?: ChunkUnit;
}
