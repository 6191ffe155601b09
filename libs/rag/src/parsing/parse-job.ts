import { chunkText } from '../chunking/chunker.js';
import type { Chunk, ChunkingOptions } from '../chunking/chunk.types.js';
import type { DocumentType } from '../document.types.js';
import { HashingEmbedder, type HashingEmbedderOptions } from '../embedding/hashing.embedder.js';
import { loadAs } from '../loaders/load-document.js';
import type { LoadOptions } from '../loaders/load-options.js';
import { UnreadableDocumentError } from '../rag.errors.js';

/** One file to turn into chunks: what a parser worker receives. */
export interface ParseJob {
  /** The detected format (`detectDocumentType`). */
  type: DocumentType;
  /** The file's bytes. */
  content: Uint8Array;
  /** The name shown in error messages. */
  name: string;
  /** The id the chunks are given (`<documentId>:<index>`). */
  documentId: string;
  /** How the text is cut. */
  chunking: ChunkingOptions;
  /** Bounds of the loaders (`maxInflatedBytes` of a DOCX or PDF). @default the loaders' */
  load?: LoadOptions;
  /**
   * Embed the chunks here too, with a `HashingEmbedder` of these options (the offline default:
   * pure CPU work, ~0.2–0.5 s per MB of text). Unset: the caller embeds (a model's embeddings
   * are network calls, which do not block).
   */
  hashing?: Required<HashingEmbedderOptions>;
}

/** What parsing one file produced. */
export interface ParseOutcome {
  /** The document's chunks, in order. */
  chunks: Chunk[];
  /** Length of the extracted text, in characters. */
  characters: number;
  /**
   * The chunks' vectors when the job asked for `hashing`: one row per chunk, in one flat array
   * (moved, not copied, from the worker: a million numbers in nested arrays took ~1.5 s of the
   * main thread to receive). `vectorRows` gives one view per chunk.
   */
  vectors?: Float64Array;
}

/**
 * The rows of a flat vector array (`count` vectors of equal length) as views of it: no copy, and
 * what `VectorStore.add` takes (`ArrayLike<number>[]`).
 */
export function vectorRows(flat: Float64Array, count: number): Float64Array[] {
  if (count === 0) return [];
  const dimensions = flat.length / count;
  const rows: Float64Array[] = [];
  for (let i = 0; i < count; i += 1) rows.push(flat.subarray(i * dimensions, (i + 1) * dimensions));
  return rows;
}

/**
 * Loads a file's text and cuts it into chunks: the CPU-bound part of ingestion, which
 * `ParserPool` runs in a worker thread. Throws the loaders' `ToolkitError`s (415, 422); a file
 * nested deeper than a parser's recursion can follow (HTML of a million nested `<div>`s) is a
 * 422 too, not an internal error. With `job.hashing`, the chunks are embedded here as well.
 */
export async function parseDocument(job: ParseJob): Promise<ParseOutcome> {
  const loaded = await loadAs(job.type, job.content, job.name, job.load).catch((error: unknown) => {
    if (error instanceof RangeError && /call stack/i.test(error.message)) {
      throw new UnreadableDocumentError('corrupt', `"${job.name}" is nested too deeply to read`);
    }
    throw error;
  });
  const chunks = chunkText(
    { documentId: job.documentId, text: loaded.text, pages: loaded.pages },
    job.chunking,
  );
  const outcome: ParseOutcome = { chunks, characters: loaded.text.length };
  if (job.hashing) {
    const { dimensions } = job.hashing;
    const rows = await new HashingEmbedder(job.hashing).embed(chunks.map((c) => c.text));
    const flat = new Float64Array(rows.length * dimensions);
    rows.forEach((row, i) => flat.set(row, i * dimensions));
    outcome.vectors = flat;
  }
  return outcome;
}
