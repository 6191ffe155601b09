import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DocumentType } from '../../src/document.types.js';

/** Where `scripts/build-corpus.sh` builds the corpus unless `TOOLKIT_CORPUS_DIR` says otherwise. */
export const DEFAULT_CORPUS_DIR = '/var/cache/toolkit-corpus/v1';

/** The command that builds the corpus in `dir` (installing its Debian packages as root). */
export function buildCorpusCommand(dir = corpusDir()): string {
  const where = dir === DEFAULT_CORPUS_DIR ? '' : `TOOLKIT_CORPUS_DIR=${dir} `;
  return `sudo ${where}bash scripts/build-corpus.sh`;
}

/** One file of the real-document corpus, as `corpus.json` lists it. */
export interface CorpusEntry {
  /** File name under `files/`, also the name it is ingested under. */
  name: string;
  /** The format the loaders must detect. */
  type: DocumentType;
  /** The Debian file it comes from. */
  origin: string;
  /** PDF/DOCX made by LibreOffice: the HTML it was converted from, relative to the corpus. */
  source?: string;
  /** Files holding the same text (the Debian Reference as PDF, text and one chapter). */
  family?: string;
}

/** The corpus on this machine: its folder and its files. */
export interface RealCorpus {
  dir: string;
  entries: CorpusEntry[];
}

/** The corpus folder: `TOOLKIT_CORPUS_DIR`, else {@link DEFAULT_CORPUS_DIR}. */
export function corpusDir(): string {
  return process.env.TOOLKIT_CORPUS_DIR || DEFAULT_CORPUS_DIR;
}

/**
 * Reads the corpus built by `scripts/build-corpus.sh`; undefined when it is not there (its
 * `corpus.json` is written last, so a corpus with one is complete).
 *
 * @example
 * const corpus = readCorpus();
 * for (const entry of corpus?.entries ?? []) readFileSync(corpusPath(corpus, entry.name));
 */
export function readCorpus(dir = corpusDir()): RealCorpus | undefined {
  const manifest = join(dir, 'corpus.json');
  if (!existsSync(manifest)) return undefined;
  const { files } = JSON.parse(readFileSync(manifest, 'utf8')) as { files: CorpusEntry[] };
  return { dir, entries: files };
}

/** The bytes of a corpus file (under `files/`). */
export function readCorpusFile(corpus: RealCorpus, entry: CorpusEntry): Buffer {
  return readFileSync(join(corpus.dir, 'files', entry.name));
}

/** The HTML a converted PDF/DOCX came from, as a string. */
export function readCorpusSource(corpus: RealCorpus, entry: CorpusEntry): string {
  if (!entry.source) throw new Error(`${entry.name} was not converted from another file`);
  return readFileSync(join(corpus.dir, entry.source), 'utf8');
}
