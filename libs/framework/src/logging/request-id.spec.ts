import { describe, expect, it } from '@jest/globals';
import { requestIdFor } from './request-id.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('requestIdFor', () => {
  it('keeps a well-formed incoming id behind a trusted proxy', () => {
    expect(requestIdFor('req-42.abc', true)).toBe('req-42.abc');
    expect(requestIdFor('Root=1-67891233-abcdef012345678912345678;Parent=53995c3f', true)).toBe(
      'Root=1-67891233-abcdef012345678912345678;Parent=53995c3f',
    );
  });

  it('generates a UUID when the proxy is not trusted', () => {
    expect(requestIdFor('req-42', false)).toMatch(UUID);
  });

  it('generates one when none came', () => {
    expect(requestIdFor(undefined, true)).toMatch(UUID);
    expect(requestIdFor('', true)).toMatch(UUID);
  });

  it('replaces a malformed id: too long, control characters, spaces, repeated headers', () => {
    for (const bad of ['a'.repeat(129), 'abc\r\nInjected: 1', 'a\u0000b', 'has space', 'é']) {
      const id = requestIdFor(bad, true);
      expect(id).toMatch(UUID);
      expect(id).not.toContain(bad);
    }
    expect(requestIdFor(['one', 'two'], true)).toMatch(UUID);
    expect(requestIdFor('a'.repeat(128), true)).toBe('a'.repeat(128));
  });
});
