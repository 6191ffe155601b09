import type { DocumentRecord } from '../document.types.js';

/** What `DocumentIndex.ingest` did with a file. */
export interface IngestResult {
  /** The stored document (the existing one when the same content was already indexed). */
  document: DocumentRecord;
  /** False when identical content was already indexed: nothing was embedded or stored again. */
  created: boolean;
}
