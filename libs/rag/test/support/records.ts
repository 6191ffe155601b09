import type { Chunk } from '../../src/chunking/chunk.types.js';
import type { DocumentRecord } from '../../src/document.types.js';

/** A document record for store tests. */
export function record(id: string, chunks: number, filename = `${id}.txt`): DocumentRecord {
  return {
    id,
    sha256: id.padEnd(64, '0'),
    filename,
    type: 'txt',
    bytes: 100,
    chunks,
    createdAt: '2025-01-01T00:00:00.000Z',
  };
}

/** A document record of `owner` (see `DocumentScope`) with one chunk. */
export function owned(id: string, owner: string, chunks = 1): DocumentRecord {
  return { ...record(id, chunks), owner };
}

/** `texts.length` chunks of a document, laid end to end. */
export function chunksOf(documentId: string, texts: string[], page?: number): Chunk[] {
  let offset = 0;
  return texts.map((text, index) => {
    const chunk: Chunk = {
      id: `${documentId}:${index}`,
      documentId,
      index,
      text,
      start: offset,
      end: offset + text.length,
    };
    if (page !== undefined) {
      chunk.page = page;
      chunk.pageEnd = page + 1;
    }
    offset += text.length + 2;
    return chunk;
  });
}

/** A unit basis vector `e_i` of `dims` dimensions, optionally mixed with `e_j`. */
export function basis(dims: number, i: number, j?: number, mix = 0.5): number[] {
  const v = new Array<number>(dims).fill(0);
  v[i] = 1;
  if (j !== undefined) v[j] = mix;
  return v;
}
