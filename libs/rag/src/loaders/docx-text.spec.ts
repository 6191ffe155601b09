import { describe, expect, it } from '@jest/globals';
import { wordDocument } from '../../test/__fixtures__/build-docx.js';
import { extractDocxText } from './docx-text.js';
import { XmlFormatError } from './xml-format.error.js';

const text = (body: string): string => extractDocxText(wordDocument(body));
const p = (...runs: string[]): string => `<w:p>${runs.join('')}</w:p>`;
const r = (inner: string): string => `<w:r>${inner}</w:r>`;
const t = (value: string): string => r(`<w:t xml:space="preserve">${value}</w:t>`);

describe('extractDocxText', () => {
  it('ends every paragraph, empty ones included, with a blank line', () => {
    expect(text(p(t('One'), t(' two')) + '<w:p/>' + p(t('Three')))).toBe(
      'One two\n\n\n\nThree\n\n',
    );
  });

  it('decodes entities and CDATA in w:t and keeps its spaces as written', () => {
    expect(text(p(t('  Caf&#233; &amp; &lt;b&gt;  '), r('<w:t><![CDATA[<raw>]]></w:t>')))).toBe(
      '  Café & <b>  <raw>\n\n',
    );
  });

  it('turns w:tab into a tab and w:br / w:cr into line breaks', () => {
    expect(text(p(t('a'), r('<w:tab/>'), t('b'), r('<w:br/>'), t('c'), r('<w:cr/>'), t('d')))).toBe(
      'a\tb\nc\nd\n\n',
    );
  });

  it('writes no-break and soft hyphens as the characters they stand for', () => {
    expect(text(p(t('e'), r('<w:noBreakHyphen/>'), t('mail'), r('<w:softHyphen/>')))).toBe(
      'e\u2011mail\u00ad\n\n',
    );
  });

  it('skips deleted text, field codes, moved-away text and properties', () => {
    const body = p(
      '<w:pPr><w:tabs><w:tab w:val="left" w:pos="720"/></w:tabs></w:pPr>',
      t('kept'),
      '<w:del><w:r><w:delText>deleted</w:delText></w:r></w:del>',
      r('<w:fldChar w:fldCharType="begin"/>'),
      r('<w:instrText> PAGE </w:instrText>'),
      r('<w:fldChar w:fldCharType="separate"/>'),
      t(' 7'),
      r('<w:fldChar w:fldCharType="end"/>'),
      '<w:moveFrom><w:r><w:t>moved away</w:t></w:r></w:moveFrom>',
      '<w:ins><w:r><w:t> inserted</w:t></w:r></w:ins>',
      '<w:moveTo><w:r><w:t> moved here</w:t></w:r></w:moveTo>',
    );
    expect(text(body + '<w:sectPr><w:t>never</w:t></w:sectPr>')).toBe(
      'kept 7 inserted moved here\n\n',
    );
  });

  it('reads tables, hyperlinks, content controls and text boxes through their fallback', () => {
    const body =
      '<w:tbl><w:tblPr/><w:tr><w:tc>' +
      p(t('cell 1')) +
      '</w:tc><w:tc>' +
      p(t('cell 2')) +
      '</w:tc></w:tr></w:tbl>' +
      p('<w:hyperlink r:id="rId5">', t('a link'), '</w:hyperlink>') +
      '<w:sdt><w:sdtPr><w:alias w:val="hidden"/><w:t>no</w:t></w:sdtPr><w:sdtContent>' +
      p(t('control')) +
      '</w:sdtContent></w:sdt>' +
      p(
        r(
          '<mc:AlternateContent><mc:Choice Requires="wps"><w:drawing>' +
            '<w:txbxContent>' +
            p(t('choice')) +
            '</w:txbxContent></w:drawing></mc:Choice>' +
            '<mc:Fallback><w:pict><v:shape><v:textbox><w:txbxContent>' +
            p(t('fallback')) +
            '</w:txbxContent></v:textbox></v:shape></w:pict></mc:Fallback></mc:AlternateContent>',
        ),
      );
    expect(text(body)).toBe('cell 1\n\ncell 2\n\na link\n\ncontrol\n\nfallback\n\n\n\n');
  });

  it('resolves namespace prefixes: another prefix or the default namespace', () => {
    const ns = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';
    expect(
      extractDocxText(
        `<x:document xmlns:x="${ns}"><x:body><x:p><x:r><x:t>prefixed</x:t></x:r></x:p></x:body></x:document>`,
      ),
    ).toBe('prefixed\n\n');
    expect(
      extractDocxText(
        `<document xmlns="${ns}"><body><p><r><t>default</t></r></p></body></document>`,
      ),
    ).toBe('default\n\n');
  });

  it('reads nothing from elements of unknown namespaces, even one that rebinds w:', () => {
    expect(
      extractDocxText(
        '<w:document xmlns:w="urn:other"><w:body><w:p><w:r><w:t>no</w:t></w:r></w:p></w:body></w:document>',
      ),
    ).toBe('');
  });

  it('throws XmlFormatError for malformed XML', () => {
    expect(() => text('<w:p><w:r></w:p></w:r>')).toThrow(XmlFormatError);
  });

  it('reads 200,000 sibling runs and 200,000 sibling paragraphs in order', () => {
    const words = Array.from({ length: 200_000 }, (_, i) => `w${i}`);
    const runs = text(p(words.map((word) => t(`${word} `)).join('')));
    expect(runs).toBe(`${words.join(' ')} \n\n`);
    const paragraphs = text(words.map((word) => p(t(word))).join(''));
    expect(paragraphs.split('\n\n').slice(0, -1)).toEqual(words);
  });

  it('reads text under 50,000 levels of nested content controls', () => {
    const depth = 50_000;
    const open = '<w:sdt><w:sdtContent>'.repeat(depth);
    const close = '</w:sdtContent></w:sdt>'.repeat(depth);
    expect(text(open + p(t('deep')) + close)).toBe('deep\n\n');
  });
});
