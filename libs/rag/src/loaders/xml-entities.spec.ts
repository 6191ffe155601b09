import { describe, expect, it } from '@jest/globals';
import { decodeXmlEntities } from './xml-entities.js';

describe('decodeXmlEntities', () => {
  it('decodes the five predefined entities', () => {
    expect(decodeXmlEntities('&lt;a href=&quot;x&quot;&gt; &amp; &apos;')).toBe(
      '<a href="x"> & \'',
    );
  });

  it('decodes decimal and hexadecimal references, astral characters included', () => {
    expect(decodeXmlEntities('Caf&#233; &#xE9;&#Xe9; &#128512; &#x1F600;')).toBe('Café éé 😀 😀');
  });

  it('turns numbers that are no Unicode scalar value into U+FFFD', () => {
    expect(decodeXmlEntities('&#0;&#xD800;&#x110000;&#99999999999;')).toBe('\ufffd'.repeat(4));
  });

  it('keeps unknown and inherited names as written (no prototype lookups, no expansion)', () => {
    expect(decodeXmlEntities('&nbsp; &lol9; &constructor; &toString; & alone')).toBe(
      '&nbsp; &lol9; &constructor; &toString; & alone',
    );
  });

  it('returns text without "&" unchanged', () => {
    expect(decodeXmlEntities('plain text')).toBe('plain text');
  });
});
