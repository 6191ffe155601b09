import { describe, expect, it } from '@jest/globals';
import { parsePartialJson } from './partial-json.js';

describe('parsePartialJson', () => {
  it('closes open objects, arrays and strings, dropping half keys and literals', () => {
    expect(parsePartialJson('')).toBeUndefined();
    expect(parsePartialJson('{')).toEqual({});
    expect(parsePartialJson('{"ci')).toEqual({});
    expect(parsePartialJson('{"city"')).toEqual({});
    expect(parsePartialJson('{"city": "Par')).toEqual({ city: 'Par' });
    expect(parsePartialJson('{"city": "Paris", "ok": tr')).toEqual({ city: 'Paris' });
    expect(parsePartialJson('{"n": 12')).toEqual({ n: 12 });
    expect(parsePartialJson('{"tags": ["a", "b"')).toEqual({ tags: ['a', 'b'] });
    expect(parsePartialJson('{"a": {"b": [1, {"c": "d')).toEqual({ a: { b: [1, { c: 'd' }] } });
  });

  it('keeps escapes and drops a half escape', () => {
    expect(parsePartialJson('{"s": "a\\"b')).toEqual({ s: 'a"b' });
    expect(parsePartialJson('{"s": "a\\')).toEqual({ s: 'a' });
    expect(parsePartialJson('{"s": "\\u00e9\\u00')).toEqual({ s: 'é' });
  });

  it('parses complete JSON exactly and refuses what is not JSON', () => {
    const whole = { a: [1, 2.5, -3e2], b: { c: null, d: false }, e: 'x' };
    expect(parsePartialJson(JSON.stringify(whole))).toEqual(whole);
    expect(parsePartialJson('hello')).toBeUndefined();
    expect(parsePartialJson('{"a": x}')).toBeUndefined();
  });
});
