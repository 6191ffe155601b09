import { decodeXmlEntities } from './xml-entities.js';
import { scanXml, type XmlHandler } from './xml-scanner.js';

/** Namespaces whose elements hold text, by the prefix this reader knows them as. */
const NAMESPACES: Readonly<Record<string, string>> = {
  'http://schemas.openxmlformats.org/wordprocessingml/2006/main': 'w',
  'http://purl.oclc.org/ooxml/wordprocessingml/main': 'w',
  'http://schemas.openxmlformats.org/markup-compatibility/2006': 'mc',
  'urn:schemas-microsoft-com:vml': 'v',
};

/**
 * Elements read through for their content; any other element is skipped with all it holds:
 * properties (`w:pPr`, `w:rPr`, `w:sectPr`), deleted and moved-away text (`w:del`,
 * `w:moveFrom`), field codes (`w:instrText`), the `mc:Choice` of alternate content (its
 * `mc:Fallback` is read instead, as Word does when it does not know the choice).
 */
const CONTAINERS = new Set([
  'w:document',
  'w:body',
  'w:p',
  'w:r',
  'w:hyperlink',
  'w:fldSimple',
  'w:tbl',
  'w:tr',
  'w:tc',
  'w:sdt',
  'w:sdtContent',
  'w:customXml',
  'w:smartTag',
  'w:ins',
  'w:moveTo',
  'w:dir',
  'w:bdo',
  'w:object',
  'w:pict',
  'w:txbxContent',
  'v:group',
  'v:rect',
  'v:roundrect',
  'v:shape',
  'v:textbox',
  'mc:AlternateContent',
  'mc:Fallback',
]);

/** Empty elements that stand for a character. */
const CHARACTERS: Readonly<Record<string, string>> = {
  'w:tab': '\t',
  'w:br': '\n',
  'w:cr': '\n',
  'w:noBreakHyphen': '\u2011',
  'w:softHyphen': '\u00ad',
};

const XMLNS = /\sxmlns(?::([^\s=]+))?\s*=\s*("[^"]*"|'[^']*')/g;

/**
 * The visible text of a WordprocessingML body (`word/document.xml`), in one linear pass with no
 * DOM, so neither 200,000 sibling runs nor deep nesting cost more than their size. Like
 * mammoth's `extractRawText`: each paragraph (`w:p`) ends with a blank line, `w:t` text is
 * kept as written (entities decoded), `w:tab` is a tab; unlike it, `w:br`/`w:cr` are line
 * breaks instead of nothing. Namespace prefixes other than `w:` are resolved.
 *
 * Throws an `XmlFormatError` for XML that is not well formed.
 *
 * @example
 * extractDocxText('<w:document …><w:body><w:p><w:r><w:t>Hi</w:t></w:r></w:p></w:body></w:document>');
 * // 'Hi\n\n'
 */
export function extractDocxText(xml: string): string {
  const reader = new BodyTextReader(xml);
  scanXml(xml, reader);
  return reader.result();
}

class BodyTextReader implements XmlHandler {
  private out = '';
  /** Depth of the element whose content is skipped, or -1 when reading. */
  private skipFrom = -1;
  /** Depth of the open `w:t`, or -1. */
  private textAt = -1;
  /** Prefix → known namespace; the usual ones hold until a document binds them otherwise. */
  private readonly prefixes = new Map<string, string>([
    ['w', 'w'],
    ['mc', 'mc'],
    ['v', 'v'],
  ]);
  private readonly names = new Map<string, string>();

  constructor(private readonly xml: string) {}

  result(): string {
    return this.out;
  }

  text(from: number, to: number): void {
    if (this.textAt !== -1 && this.skipFrom === -1) {
      this.out += decodeXmlEntities(this.xml.slice(from, to));
    }
  }

  cdata(text: string): void {
    if (this.textAt !== -1 && this.skipFrom === -1) this.out += text;
  }

  open(rawName: string, depth: number, attributes: string, selfClosing: boolean): void {
    if (attributes.includes('xmlns')) this.declare(attributes);
    if (this.skipFrom !== -1) return;
    const name = this.canonical(rawName);
    if (this.textAt !== -1) {
      // Markup inside w:t is not valid WordprocessingML: skip it, keep the text around it.
      if (!selfClosing) this.skipFrom = depth;
    } else if (name === 'w:t') {
      if (!selfClosing) this.textAt = depth;
    } else if (Object.hasOwn(CHARACTERS, name)) {
      this.out += CHARACTERS[name];
      if (!selfClosing) this.skipFrom = depth;
    } else if (name === 'w:p' && selfClosing) {
      this.out += '\n\n';
    } else if (!CONTAINERS.has(name) && !selfClosing) {
      this.skipFrom = depth;
    }
  }

  close(rawName: string, depth: number): void {
    if (depth === this.skipFrom) this.skipFrom = -1;
    else if (this.skipFrom !== -1) return;
    else if (depth === this.textAt) this.textAt = -1;
    else if (this.canonical(rawName) === 'w:p') this.out += '\n\n';
  }

  /** `w:p` for `w:p`, `ns0:p` or an unprefixed `p` in the WordprocessingML namespace. */
  private canonical(rawName: string): string {
    let name = this.names.get(rawName);
    if (name === undefined) {
      const colon = rawName.indexOf(':');
      const prefix = colon === -1 ? '' : rawName.slice(0, colon);
      const known = this.prefixes.get(prefix);
      // An unknown namespace gets a name no table holds.
      name = known === undefined ? `?${rawName}` : `${known}:${rawName.slice(colon + 1)}`;
      this.names.set(rawName, name);
    }
    return name;
  }

  /** Records namespace declarations (for the whole document: Word never rebinds a prefix). */
  private declare(attributes: string): void {
    for (const [, prefix = '', quoted] of attributes.matchAll(XMLNS)) {
      const uri = quoted.slice(1, -1);
      if (Object.hasOwn(NAMESPACES, uri)) this.prefixes.set(prefix, NAMESPACES[uri]);
      else this.prefixes.delete(prefix);
    }
    this.names.clear();
  }
}
