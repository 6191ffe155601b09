import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ValidationError } from '../../../providers/src/errors/validation.error.js';
import { hashContent } from './content-hash.js';
import { DocumentStorage } from './document-storage.js';

describe('DocumentStorage', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'tk-rag-storage-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('stores content under its hash and the detected type, never a client name', async () => {
    const storage = new DocumentStorage(join(dir, 'documents'));
    const { id, sha256 } = hashContent(Buffer.from('hello'));
    expect(sha256).toBe('2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824');
    expect(id).toBe('2cf24dba5fb0a30e26e83b2ac5b9e29e');
    expect(await storage.save(id, 'markdown', Buffer.from('hello'))).toBe(`${id}.md`);
    expect(await readdir(join(dir, 'documents'))).toEqual([`${id}.md`]);
    expect(await readFile(storage.resolve(`${id}.md`), 'utf8')).toBe('hello');
    await storage.remove(`${id}.md`);
    expect(await readdir(join(dir, 'documents'))).toEqual([]);
  });

  it("records the client's name beside the files, for display only", async () => {
    const folder = join(dir, 'named');
    const storage = new DocumentStorage(folder);
    const { id } = hashContent(Buffer.from('named'));
    const path = await storage.save(id, 'txt', Buffer.from('named'), 'Q3 report.txt');
    expect((await readdir(folder)).sort()).toEqual(['.names.json', `${id}.txt`]);
    expect(await storage.displayName(path)).toBe('Q3 report.txt');
    // A fresh instance reads the names back; unknown files show their own name.
    const reopened = new DocumentStorage(folder);
    expect(await reopened.displayName(path)).toBe('Q3 report.txt');
    expect(await reopened.displayName('sub/by-hand.md')).toBe('by-hand.md');
    await reopened.remove(path);
    expect(await new DocumentStorage(folder).displayName(path)).toBe(path);
    // The stored name itself is never recorded as a client name.
    await storage.save(id, 'txt', Buffer.from('named'), `${id}.txt`);
    expect(JSON.parse(await readFile(join(folder, '.names.json'), 'utf8'))).toEqual({
      version: 1,
      names: {},
    });
  });

  it.each(['../escape.txt', '../../etc/passwd', '/etc/passwd', '.', 'a/../../b'])(
    'refuses the path %s',
    (path) => {
      expect(() => new DocumentStorage(dir).resolve(path)).toThrow(ValidationError);
    },
  );

  it('refuses ids that are not content hashes', () => {
    expect(() => DocumentStorage.fileName('../x', 'pdf')).toThrow(ValidationError);
  });
});
