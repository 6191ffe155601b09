import { chunkText } from '../chunking/chunker.js';
import type { Chunk, ChunkingOptions } from '../chunking/chunk.types.js';
import type { DocumentType } from '../document.types.js';
import { loadAs } from '../loaders/load-document.js';
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
}

/** What parsing one file produced. */
export interface ParseOutcome {
  /** The document's chunks, in order. */
  chunks: Chunk[];
  /** Length of the extracted text, in characters. */
  characters: number;
}

/**
 * Loads a file's text and cuts it into chunks: the CPU-bound part of ingestion, which
 * `ParserPool` runs in a worker thread. Throws the loaders' `ToolkitError`s (415, 422); a file
 * nested deeper than a parser's recursion can follow (HTML of a million nested `<div>`s) is a
 * 422 too, not an internal error.
 */
export async function parseDocument(job: ParseJob): Promise<ParseOutcome> {
  const loaded = await loadAs(job.type, job.content, job.name).catch((error: unknown) => {
    if (error instanceof RangeError && /call stack/i.test(error.message)) {
      throw new UnreadableDocumentError('corrupt', `"${job.name}" is nested too deeply to read`);
    }
    throw error;
  });
  const chunks = chunkText(
    { documentId: job.documentId, text: loaded.text, pages: loaded.pages },
    job.chunking,
  );
  return { chunks, characters: loaded.text.length };
}
