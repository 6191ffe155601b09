import { mkdir, readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { writeFileAtomic } from '../stores/atomic-file.js';

/**
 * The names clients gave the files stored under server-generated names, by stored path: kept
 * beside the originals (`<documentsDir>/.names.json`, hidden from folder indexing), so an
 * index rebuilt from the stored files — its folder deleted, a new embedder — still shows
 * `handbook.pdf`, not `3f2a….pdf`. Written atomically; a missing or unreadable file (a store
 * from before names were kept) has no names, and the stored names are shown instead.
 *
 * The same file format, under another `field`, keeps the owners of private uploads
 * (`.owners.json`, see `DocumentStorage`).
 */
export class OriginalNames {
  private loaded?: Promise<Map<string, string>>;
  /** The write under way (settled when none), and the one waiting for it, if any. */
  private writing: Promise<void> = Promise.resolve();
  private queued?: Promise<void>;

  /** @param field the JSON key holding the map. @default 'names' */
  constructor(
    readonly path: string,
    private readonly field = 'names',
  ) {}

  /** The client's name of a stored file, if one was recorded. */
  async get(storedPath: string): Promise<string | undefined> {
    return (await this.names()).get(storedPath);
  }

  /** Records (and writes) the client's name of a stored file. */
  async set(storedPath: string, name: string): Promise<void> {
    const names = await this.names();
    if (names.get(storedPath) === name) return;
    names.set(storedPath, name);
    await this.save();
  }

  /** Forgets (and writes) a stored file's name; nothing to do when none was recorded. */
  async delete(storedPath: string): Promise<void> {
    const names = await this.names();
    if (names.delete(storedPath)) await this.save();
  }

  private names(): Promise<Map<string, string>> {
    this.loaded ??= readNames(this.path, this.field);
    return this.loaded;
  }

  /** Concurrent changes share the next write (see `IndexManifest.save`). */
  private save(): Promise<void> {
    if (this.queued) return this.queued;
    const next = this.writing.then(async () => {
      this.queued = undefined;
      const names = await this.names();
      await mkdir(dirname(this.path), { recursive: true });
      await writeFileAtomic(
        this.path,
        JSON.stringify({ version: 1, [this.field]: Object.fromEntries(names) }, null, 1),
      );
    });
    this.queued = next;
    this.writing = next.catch(() => undefined);
    return next;
  }
}

async function readNames(path: string, field: string): Promise<Map<string, string>> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(await readFile(path, 'utf8'));
  } catch {
    return new Map();
  }
  const names = (parsed as Record<string, unknown> | null)?.[field];
  if (typeof names !== 'object' || names === null || Array.isArray(names)) return new Map();
  return new Map(
    Object.entries(names).filter(
      (entry): entry is [string, string] => typeof entry[1] === 'string',
    ),
  );
}
