import { describe, expect, it } from '@jest/globals';
import { ALL_DOCUMENTS, assertOwner, canChange, canSee, resolveScope } from './document-scope.js';

describe('DocumentScope', () => {
  it('shows an owner its documents and the shared ones; no scope the shared ones; all, all', () => {
    const mine = { owner: 'A' };
    expect([canSee(mine, 'A'), canSee(mine, undefined), canSee(mine, 'B')]).toEqual([
      true,
      true,
      false,
    ]);
    expect([canSee({}, undefined), canSee({}, 'A')]).toEqual([true, false]);
    expect([canSee(ALL_DOCUMENTS, 'B'), canSee(ALL_DOCUMENTS, undefined)]).toEqual([true, true]);
  });

  it('lets an owner change only its own documents, and shared ones only the app', () => {
    expect([canChange({ owner: 'A' }, 'A'), canChange({ owner: 'A' }, undefined)]).toEqual([
      true,
      false,
    ]);
    expect([canChange({ owner: 'A' }, 'B'), canChange({}, 'A'), canChange({}, undefined)]).toEqual([
      false,
      false,
      true,
    ]);
    expect(canChange(ALL_DOCUMENTS, 'B')).toBe(true);
  });

  it('resolves no scope to the shared documents and checks the owner', () => {
    expect(resolveScope(undefined)).toEqual({});
    expect(resolveScope({ owner: 'A', all: true })).toBe(ALL_DOCUMENTS);
    expect(resolveScope({ owner: 'session:x' })).toEqual({ owner: 'session:x' });
    expect(() => assertOwner(undefined)).not.toThrow();
    for (const bad of ['', 'a\u0000b', 'line\nbreak', 'x'.repeat(513), 42]) {
      expect(() => resolveScope({ owner: bad as string })).toThrow(/owner/);
    }
  });
});
