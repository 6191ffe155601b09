import { describe, expect, it } from '@jest/globals';
import { ToolkitError } from '../errors/toolkit.error.js';
import { cacheKey } from './cache-key.js';
import { canonicalJson } from './canonical-json.js';

describe('canonicalJson', () => {
  it('sorts keys at every depth and keeps array order', () => {
    expect(canonicalJson({ b: [2, { d: 1, c: 0 }], a: 'x' })).toBe(
      '{"a":"x","b":[2,{"c":0,"d":1}]}',
    );
  });

  it('follows JSON.stringify otherwise: toJSON, undefined dropped, null kept', () => {
    const when = new Date('2025-01-02T03:04:05.000Z');
    expect(canonicalJson({ z: undefined, when, n: null })).toBe(
      '{"n":null,"when":"2025-01-02T03:04:05.000Z"}',
    );
    expect(canonicalJson(undefined)).toBe('null');
  });

  it('sorts the keys of class instances (DTOs) too', () => {
    class Dto {
      b = 1;
      a = 2;
    }
    expect(canonicalJson(new Dto())).toBe('{"a":2,"b":1}');
  });

  it('refuses values JSON cannot hold with a ToolkitError', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(() => canonicalJson(cyclic)).toThrow(ToolkitError);
    expect(() => canonicalJson({ n: 1n })).toThrow('not JSON-serialisable');
  });
});

describe('cacheKey', () => {
  it('is stable across parameter key order, at any depth', () => {
    const a = cacheKey('POST', '/translate', { text: 'hi', opts: { to: 'fr', formal: true } });
    const b = cacheKey('post', '/translate', { opts: { formal: true, to: 'fr' }, text: 'hi' });
    expect(a).toBe(b);
  });

  it('keeps method, route and short parameters readable; long ones become a SHA-256 digest', () => {
    expect(cacheKey('get', '/items/:id', { id: '7' })).toBe('GET /items/:id {"id":"7"}');
    const long = cacheKey('POST', '/summarize', { text: 'x'.repeat(300) });
    expect(long).toMatch(/^POST \/summarize #[\w-]{43}$/);
    expect(cacheKey('POST', '/summarize', { text: 'x'.repeat(301) })).not.toBe(long);
  });

  it('differs when any part differs', () => {
    const base = cacheKey('GET', '/a', { q: 1 });
    expect(cacheKey('POST', '/a', { q: 1 })).not.toBe(base);
    expect(cacheKey('GET', '/b', { q: 1 })).not.toBe(base);
    expect(cacheKey('GET', '/a', { q: 2 })).not.toBe(base);
    expect(cacheKey('GET', '/a', { q: '1' })).not.toBe(base);
    expect(cacheKey('GET', '/a', { q: [1, 2] })).not.toBe(cacheKey('GET', '/a', { q: [2, 1] }));
  });

  it('varies on opted-in headers, case-insensitively, without exposing their values', () => {
    const alice = cacheKey('GET', '/a', {}, { Authorization: 'Bearer secret-a' });
    const bob = cacheKey('GET', '/a', {}, { authorization: 'Bearer secret-b' });
    expect(alice).not.toBe(bob);
    expect(cacheKey('GET', '/a', {}, { AUTHORIZATION: 'Bearer secret-a' })).toBe(alice);
    expect(alice).not.toContain('secret');
    expect(cacheKey('GET', '/a', {}, { authorization: undefined })).not.toBe(
      cacheKey('GET', '/a', {}, { authorization: '' }),
    );
  });

  it('ignores headers unless asked', () => {
    expect(cacheKey('GET', '/a', { q: 1 })).toBe(cacheKey('GET', '/a', { q: 1 }, {}));
  });
});
