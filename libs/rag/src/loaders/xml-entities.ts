const NAMED: Readonly<Record<string, string>> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
};

const REFERENCE = /&(?:#(\d+)|#[xX]([0-9a-fA-F]+)|([A-Za-z][A-Za-z0-9]*));/g;

/**
 * Decodes XML character references in text: the five predefined entities (`&amp;` …) and
 * numeric ones (`&#233;`, `&#xE9;`). A number that is no Unicode scalar value becomes U+FFFD;
 * any other `&name;` is kept as written, since a document's own entity declarations are never
 * expanded (no "billion laughs"). One pass, linear in the text's length.
 *
 * @example
 * decodeXmlEntities('Caf&#233; &amp; bar'); // 'Café & bar'
 */
export function decodeXmlEntities(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(
    REFERENCE,
    (whole, decimal: string | undefined, hex: string | undefined, name: string | undefined) => {
      if (name !== undefined) return Object.hasOwn(NAMED, name) ? NAMED[name] : whole;
      const code = decimal !== undefined ? Number.parseInt(decimal, 10) : Number.parseInt(hex!, 16);
      return isScalarValue(code) ? String.fromCodePoint(code) : '\ufffd';
    },
  );
}

function isScalarValue(code: number): boolean {
  return code > 0 && code <= 0x10ffff && (code < 0xd800 || code > 0xdfff);
}
