import { createHash } from 'node:crypto';

/** A file's sha256 and the document id derived from it. */
export interface ContentHash {
  /** Full sha256 of the content, hex. */
  sha256: string;
  /** The document id: 32 hex digits (128 bits, collision-free in practice). */
  id: string;
}

/**
 * Hashes file content into its document id. Shared content (no `owner`): the first 32 hex digits
 * of its sha256, so identical bytes are one document (and indexes from before owners keep their
 * ids). Owned content: the first 32 hex digits of sha256(owner, content hash), so the same bytes
 * uploaded by two owners are two documents, each deleted on its own, and an owner's id tells
 * nothing about whether someone else holds the same file (no `created: false` for another's copy).
 */
export function hashContent(buffer: Uint8Array, owner?: string): ContentHash {
  const sha256 = createHash('sha256').update(buffer).digest('hex');
  return { sha256, id: documentIdOf(sha256, owner) };
}

/** The document id of content with this sha256 (hex) for this owner (see {@link hashContent}). */
export function documentIdOf(sha256: string, owner?: string): string {
  if (owner === undefined) return sha256.slice(0, 32);
  return createHash('sha256')
    .update(`toolkit:owned-document\u0000${owner}\u0000${sha256}`)
    .digest('hex')
    .slice(0, 32);
}
