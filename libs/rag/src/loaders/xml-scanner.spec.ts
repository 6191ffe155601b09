import { describe, expect, it } from '@jest/globals';
import { scanXml, type XmlHandler } from './xml-scanner.js';
import { XmlFormatError } from './xml-format.error.js';

/** Records every event as a short string. */
function events(xml: string): string[] {
  const out: string[] = [];
  const handler: XmlHandler = {
    open: (name, depth, attributes, selfClosing) =>
      out.push(`${selfClosing ? 'empty' : 'open'} ${name}@${depth} [${attributes}]`),
    close: (name, depth) => out.push(`close ${name}@${depth}`),
    text: (from, to) => out.push(`text ${JSON.stringify(xml.slice(from, to))}`),
    cdata: (text) => out.push(`cdata ${JSON.stringify(text)}`),
  };
  scanXml(xml, handler);
  return out;
}

describe('scanXml', () => {
  it('reports tags with their depth, empty elements and text in order', () => {
    expect(events('<a x="1"><b/>hi<c>t</c></a>')).toEqual([
      'open a@0 [ x="1"]',
      'empty b@1 []',
      'text "hi"',
      'open c@1 []',
      'text "t"',
      'close c@1',
      'close a@0',
    ]);
  });

  it('finds the end of a tag past ">" and the other quote inside attribute values', () => {
    expect(events(`<a t="x>y'" u='">'>z</a>`)).toEqual([
      `open a@0 [ t="x>y'" u='">']`,
      'text "z"',
      'close a@0',
    ]);
  });

  it('skips the declaration, comments, processing instructions and a DOCTYPE subset', () => {
    const xml =
      '<?xml version="1.0"?><!DOCTYPE a [<!ENTITY e "<b>boom</b>">]>' +
      '<a><!-- <b>not</b> --><?pi <c> ?>x<![CDATA[<kept> & raw]]></a>';
    expect(events(xml)).toEqual(['open a@0 []', 'text "x"', 'cdata "<kept> & raw"', 'close a@0']);
  });

  it('throws XmlFormatError for an end tag that closes the wrong element', () => {
    expect(() => events('<a><b></a></b>')).toThrow(XmlFormatError);
    expect(() => events('</a>')).toThrow(XmlFormatError);
  });

  it('throws XmlFormatError for a "<" that starts no tag', () => {
    expect(() => events('<a>< b</a>')).toThrow(XmlFormatError);
  });

  it('accepts input cut inside an element or a tag as far as it goes', () => {
    expect(events('<a>text<b att="unterminated')).toEqual(['open a@0 []', 'text "text"']);
    expect(events('<a><!-- open comment')).toEqual(['open a@0 []']);
  });

  it('handles 100,000 levels of nesting without recursion', () => {
    const depth = 100_000;
    let deepest = 0;
    let closes = 0;
    scanXml('<d>'.repeat(depth) + '</d>'.repeat(depth), {
      open: (_name, level) => (deepest = Math.max(deepest, level)),
      close: () => (closes += 1),
      text: () => undefined,
      cdata: () => undefined,
    });
    expect(deepest).toBe(depth - 1);
    expect(closes).toBe(depth);
  });
});
