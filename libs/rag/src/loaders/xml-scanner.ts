import { XmlFormatError } from './xml-format.error.js';
/** Receives what {@link scanXml} finds, in document order. */
export interface XmlHandler {
  /**
   * A start tag (or an empty-element tag when `selfClosing`). `depth` is the number of elements
   * open around it; `attributes` is the source after the name (`''` when there are none).
   */
  open(name: string, depth: number, attributes: string, selfClosing: boolean): void;
  /** The end tag of the element opened at `depth`. */
  close(name: string, depth: number): void;
  /** Character data `xml.slice(from, to)`, entities not yet decoded. */
  text(from: number, to: number): void;
  /** The content of a `<![CDATA[…]]>` section, taken literally. */
  cdata(text: string): void;
}

/**
 * A streaming (SAX-like) XML scanner without a DOM: one pass over the text, each character
 * looked at a bounded number of times, so time is linear in the input whatever its shape
 * (200,000 siblings, 100,000 levels of nesting). Comments, processing instructions and the
 * DOCTYPE are skipped; entity declarations are never expanded. Nesting is checked: an end tag
 * that does not match the open element throws an {@link XmlFormatError}. Input that ends
 * inside an element is accepted as far as it goes.
 */
export function scanXml(xml: string, handler: XmlHandler): void {
  const open: string[] = [];
  // Sticky patterns keep their position in `lastIndex`: one pair per call, so calls share nothing.
  const seek: Seekers = { toQuoteOrEnd: /[^"'>]*/y, toBracketOrEnd: /[^[>]*/y };
  let at = 0;
  while (at < xml.length) {
    const lt = xml.indexOf('<', at);
    if (lt === -1) {
      handler.text(at, xml.length);
      return;
    }
    if (lt > at) handler.text(at, lt);
    const next = xml.charCodeAt(lt + 1);
    if (xml.startsWith('<!--', lt)) {
      at = skipPast(xml, '-->', lt + 4);
    } else if (xml.startsWith('<![CDATA[', lt)) {
      const end = xml.indexOf(']]>', lt + 9);
      handler.cdata(xml.slice(lt + 9, end === -1 ? xml.length : end));
      at = end === -1 ? xml.length : end + 3;
    } else if (next === 0x21 /* ! */) {
      at = skipDeclaration(xml, lt, seek.toBracketOrEnd);
    } else if (next === 0x3f /* ? */) {
      at = skipPast(xml, '?>', lt + 2);
    } else {
      const gt = tagEnd(xml, lt + 1, seek.toQuoteOrEnd);
      if (gt === -1) return;
      if (next === 0x2f /* / */) {
        const name = xml.slice(lt + 2, gt).trim();
        if (open.pop() !== name) {
          throw new XmlFormatError(`end tag </${name}> does not match the open element`);
        }
        handler.close(name, open.length);
      } else {
        const selfClosing = xml.charCodeAt(gt - 1) === 0x2f; /* / */
        const end = selfClosing ? gt - 1 : gt;
        const nameEnd = endOfName(xml, lt + 1, end);
        if (nameEnd === lt + 1) throw new XmlFormatError(`a "<" at offset ${lt} starts no tag`);
        const name = xml.slice(lt + 1, nameEnd);
        handler.open(name, open.length, nameEnd < end ? xml.slice(nameEnd, end) : '', selfClosing);
        if (!selfClosing) open.push(name);
      }
      at = gt + 1;
    }
  }
}

/** Where a tag's name ends: at white space, or at `end` (its `/>` or `>`). */
function endOfName(xml: string, from: number, end: number): number {
  let at = from;
  while (at < end) {
    const code = xml.charCodeAt(at);
    if (code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09) break;
    at += 1;
  }
  return at;
}

interface Seekers {
  toQuoteOrEnd: RegExp;
  toBracketOrEnd: RegExp;
}

/** The `>` that ends a tag starting at `from`, skipping quoted attribute values; -1 if none. */
function tagEnd(xml: string, from: number, toQuoteOrEnd: RegExp): number {
  let at = from;
  for (;;) {
    toQuoteOrEnd.lastIndex = at;
    toQuoteOrEnd.test(xml);
    const stop = toQuoteOrEnd.lastIndex;
    if (stop >= xml.length) return -1;
    if (xml.charCodeAt(stop) === 0x3e /* > */) return stop;
    const close = xml.indexOf(xml[stop], stop + 1);
    if (close === -1) return -1;
    at = close + 1;
  }
}

function skipPast(xml: string, marker: string, from: number): number {
  const end = xml.indexOf(marker, from);
  return end === -1 ? xml.length : end + marker.length;
}

/** `<!DOCTYPE …>`, whose internal subset `[…]` may itself hold `>` characters. */
function skipDeclaration(xml: string, from: number, toBracketOrEnd: RegExp): number {
  toBracketOrEnd.lastIndex = from;
  toBracketOrEnd.test(xml);
  const stop = toBracketOrEnd.lastIndex;
  if (stop >= xml.length) return xml.length;
  if (xml.charCodeAt(stop) === 0x3e /* > */) return stop + 1;
  return skipPast(xml, '>', skipPast(xml, ']', stop));
}
