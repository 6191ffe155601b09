import fc from 'fast-check';
import type { CatalogParam, CatalogRoute } from './route-catalog.js';

/** Any string, including astral characters, lone surrogates, NUL and control characters. */
const anyText = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom(
    '',
    ' ',
    '\u0000',
    '\ud800',
    'a'.repeat(600),
    '__proto__',
    '<script>',
    '../../etc/passwd',
  ),
);

/** A value of the declared type, or anything else JSON can carry. */
function valueFor(param: CatalogParam): fc.Arbitrary<unknown> {
  const typed: Record<string, fc.Arbitrary<unknown>> = {
    string: anyText,
    number: fc.oneof(fc.double({ noNaN: true, noDefaultInfinity: true }), fc.integer()),
    integer: fc.oneof(fc.integer({ min: -5, max: 5 }), fc.integer()),
    boolean: fc.boolean(),
    array: fc.array(fc.jsonValue(), { maxLength: 4 }),
    object: fc.dictionary(anyText, fc.jsonValue(), { maxKeys: 4 }),
  };
  return fc.oneof(typed[param.type] ?? fc.jsonValue(), fc.jsonValue());
}

/** JSON bodies: anything at all, or objects using the route's parameter names with any values. */
export function bodyArbitrary(route: CatalogRoute): fc.Arbitrary<unknown> {
  const declared = route.params.filter((p) => p.in !== 'path');
  const shaped = fc.record(Object.fromEntries(declared.map((p) => [p.name, valueFor(p)])), {
    requiredKeys: [],
  });
  return fc.oneof(
    { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 4 }) },
    { weight: 3, arbitrary: shaped },
    {
      weight: 1,
      arbitrary: fc
        .tuple(shaped, fc.dictionary(anyText, fc.jsonValue(), { maxKeys: 3 }))
        .map(([a, b]) => ({ ...b, ...a })),
    },
  );
}

/** Raw query strings: declared and random keys, encoded or raw, with malformed escapes. */
export function queryArbitrary(route: CatalogRoute): fc.Arbitrary<string> {
  const names = route.params.map((p) => p.name);
  const key = fc.oneof(
    ...(names.length > 0 ? [fc.constantFrom(...names)] : []),
    anyText,
    fc.constantFrom('a[b]', 'a[]', '__proto__[x]', 'constructor[prototype][x]', '%', '%zz'),
  );
  const value = fc.oneof(
    anyText,
    fc.constantFrom('%E0%A4%A', '%', '1e400', 'NaN', '-0', 'true', ''),
  );
  const pair = fc
    .tuple(key, value, fc.boolean())
    .map(([k, v, encode]) => `${percentEncode(k, !encode)}=${percentEncode(v, !encode)}`);
  return fc.array(pair, { maxLength: 6 }).map((pairs) => pairs.join('&'));
}

/**
 * Percent-encodes the UTF-8 bytes of `text` (lone surrogates become U+FFFD, as on the wire).
 * `raw` keeps visible ASCII such as `%`, `[`, `]` and `=` as they are, so malformed escapes and
 * bracket syntax reach the server untouched.
 */
function percentEncode(text: string, raw: boolean): string {
  let out = '';
  for (const byte of Buffer.from(text, 'utf8')) {
    const char = String.fromCharCode(byte);
    const keep = raw
      ? byte > 0x20 && byte < 0x7f && char !== '#' && char !== '&'
      : /[A-Za-z0-9\-_.~]/.test(char);
    out += keep ? char : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

const FORBIDDEN = new Set([
  'host',
  'connection',
  'content-length',
  'transfer-encoding',
  'expect',
  'upgrade',
  'keep-alive',
  'te',
  'trailer',
]);

/** Header sets: random names and values plus the ones servers interpret, with odd values. */
export function headersArbitrary(): fc.Arbitrary<Record<string, string>> {
  const visible = fc
    .string({
      unit: fc.constantFrom(...' !"#$%&\'()*+,-./09:;<=>?@AZ[\\]^_`az{|}~'.split('')),
      maxLength: 30,
    })
    .map((s) => s.trim());
  const name = fc.stringMatching(/^[a-z][a-z0-9-]{0,15}$/).filter((n) => !FORBIDDEN.has(n));
  const interpreted = fc.record(
    {
      'content-type': fc.constantFrom(
        'application/json',
        'application/json; charset=utf-16',
        'application/json; charset=latin1',
        'application/x-www-form-urlencoded',
        'text/plain',
        'multipart/form-data',
        'application/vnd.api+json',
        '*/*',
        ';;;',
      ),
      accept: fc.constantFrom('text/event-stream', 'application/json', '*/*', 'text/html', ''),
      'accept-encoding': fc.constantFrom('gzip', 'br', 'identity;q=0', 'x-unknown'),
      'content-encoding': fc.constantFrom('identity', 'gzip', 'deflate', 'x-unknown'),
      authorization: visible,
      'x-api-key': visible,
      cookie: visible,
      'if-none-match': visible,
      range: fc.constantFrom('bytes=0-1', 'bytes=-1', 'bytes=x'),
      origin: visible,
    },
    { requiredKeys: [] },
  );
  return fc
    .tuple(fc.dictionary(name, visible, { maxKeys: 4 }), interpreted)
    .map(([random, known]) => ({ ...random, ...known }));
}

/** One arbitrary `multipart/form-data` request: its content-type header and raw body. */
export interface MultipartCase {
  contentType: string;
  body: Buffer;
}

const CRLF = '\r\n';

/**
 * Multipart bodies as a client (or an attacker) may send them: random field names and file
 * names (path tricks, quotes, control characters, unicode), random part headers and content,
 * and broken framing: a boundary that does not match the header, a missing closing boundary, a
 * truncated body, a header line without a colon, an oversized header, bare LF line ends.
 */
export function multipartArbitrary(): fc.Arbitrary<MultipartCase> {
  const token = fc
    .stringMatching(/^[A-Za-z0-9'()+_,-./:=?]{1,70}$/)
    .filter((b) => !b.endsWith(' '));
  const oddText = fc.oneof(
    fc.string({ maxLength: 40 }),
    fc.constantFrom(
      '../../etc/passwd',
      '..\\..\\boot.ini',
      'a"b.txt',
      'nul\u0000.pdf',
      'über 📄.md',
      '',
      ' ',
      'x'.repeat(300),
      'CON',
      '.hidden',
    ),
  );
  const part = fc.record({
    name: fc.oneof(fc.constantFrom('file', 'files', 'document', ''), oddText),
    filename: fc.option(oddText, { nil: undefined }),
    type: fc.constantFrom(
      'text/plain',
      'text/markdown',
      'application/pdf',
      'application/octet-stream',
      'text/html',
      'image/png',
      '',
      '*/*',
    ),
    extraHeader: fc.option(
      fc.constantFrom('X-Junk: 1', 'no colon here', `X-Big: ${'h'.repeat(9000)}`),
      {
        nil: undefined,
      },
    ),
    content: fc.oneof(
      fc.uint8Array({ maxLength: 2048 }),
      fc.string({ maxLength: 500 }).map((s) => new Uint8Array(Buffer.from(s))),
      fc.constantFrom(new Uint8Array(Buffer.from('%PDF-1.4\n%garbage')), new Uint8Array(0)),
    ),
  });
  const framing = fc.record({
    headerBoundary: fc.option(token, { nil: undefined }),
    closing: fc.boolean(),
    truncateAt: fc.option(fc.nat({ max: 4096 }), { nil: undefined }),
    lineEnd: fc.constantFrom(CRLF, CRLF, CRLF, '\n'),
    preamble: fc.option(fc.string({ maxLength: 40 }), { nil: undefined }),
  });
  return fc.tuple(token, fc.array(part, { maxLength: 4 }), framing).map(([boundary, parts, f]) => {
    const eol = f.lineEnd;
    const chunks: Buffer[] = [];
    if (f.preamble !== undefined) chunks.push(Buffer.from(f.preamble + eol));
    for (const p of parts) {
      const disposition =
        `Content-Disposition: form-data; name="${p.name}"` +
        (p.filename === undefined ? '' : `; filename="${p.filename}"`);
      const headers = [disposition];
      if (p.type !== '') headers.push(`Content-Type: ${p.type}`);
      if (p.extraHeader !== undefined) headers.push(p.extraHeader);
      chunks.push(Buffer.from(`--${boundary}${eol}${headers.join(eol)}${eol}${eol}`));
      chunks.push(Buffer.from(p.content));
      chunks.push(Buffer.from(eol));
    }
    if (f.closing) chunks.push(Buffer.from(`--${boundary}--${eol}`));
    let body = Buffer.concat(chunks);
    if (f.truncateAt !== undefined) body = body.subarray(0, f.truncateAt);
    const headerBoundary = f.headerBoundary ?? boundary;
    return { contentType: `multipart/form-data; boundary=${headerBoundary}`, body };
  });
}
