/** The document formats the RAG loaders read. */
export type DocumentType = 'pdf' | 'docx' | 'txt' | 'html' | 'markdown';

/** One page of a paginated document (PDF), located inside {@link LoadedDocument.text}. */
export interface DocumentPage {
  /** 1-based page number. */
  number: number;
  /** The page's text (equal to `text.slice(start, end)` of the document). */
  text: string;
  /** Offset of the page's first character in the document text. */
  start: number;
  /** Offset just past the page's last character. */
  end: number;
}

/**
 * Plain text extracted from a file by `loadDocument()`. Paragraphs are separated by a blank line,
 * line endings are `\n`; `pages` is set for PDFs only.
 */
export interface LoadedDocument {
  /** The detected format. */
  type: DocumentType;
  /** The whole text; never empty (an empty result is a 422 instead). */
  text: string;
  /** Page boundaries inside `text` (PDF only). */
  pages?: DocumentPage[];
}

/**
 * What the index knows about one stored document. `id` derives from the content (sha256) and
 * the owner, so the same bytes uploaded twice by one owner are one document, and by two owners
 * two documents (see `hashContent`).
 */
export interface DocumentRecord {
  /** Server-side id: 32 hex digits, the content's sha256 (shared) or a hash of it and the owner. */
  id: string;
  /** Full sha256 of the content, hex. */
  sha256: string;
  /** The name the client gave (display only; never used as a path). */
  filename: string;
  /** The detected format. */
  type: DocumentType;
  /** Size of the original file in bytes. */
  bytes: number;
  /** Number of chunks indexed. */
  chunks: number;
  /** Where the original file is stored, relative to the document folder, when it is. */
  path?: string;
  /** When it was indexed (ISO 8601). */
  createdAt: string;
  /**
   * The session or user that uploaded it, who alone (with the app) sees it; absent for a
   * shared document, which everyone sees (see `DocumentScope`).
   */
  owner?: string;
}
