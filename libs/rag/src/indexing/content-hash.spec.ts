import { createHash } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import { hashContent } from './content-hash.js';

describe('hashContent', () => {
  const bytes = Buffer.from('the same file');
  const sha256 = createHash('sha256').update(bytes).digest('hex');

  it('keeps the shared id of indexes from before owners: the sha256 prefix', () => {
    expect(hashContent(bytes)).toEqual({ sha256, id: sha256.slice(0, 32) });
  });

  it('gives each owner its own id for the same content, stable for that owner', () => {
    const a = hashContent(bytes, 'session:a');
    const b = hashContent(bytes, 'session:b');
    expect([a.sha256, b.sha256]).toEqual([sha256, sha256]);
    expect(a.id).toMatch(/^[0-9a-f]{32}$/);
    expect(new Set([a.id, b.id, sha256.slice(0, 32)]).size).toBe(3);
    expect(hashContent(bytes, 'session:a').id).toBe(a.id);
  });
});
