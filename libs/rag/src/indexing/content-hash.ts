import { createHash } from 'node:crypto';

/** A file's sha256 and the document id derived from it. */
export interface ContentHash {
  /** Full sha256, hex. */
  sha256: string;
  /** First 32 hex digits: the document id (128 bits, collision-free in practice). */
  id: string;
}

/** Hashes file content: identical bytes always give the same document id. */
export function hashContent(buffer: Uint8Array): ContentHash {
  const sha256 = createHash('sha256').update(buffer).digest('hex');
  return { sha256, id: sha256.slice(0, 32) };
}
