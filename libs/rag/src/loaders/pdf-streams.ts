/** A stream object found in a PDF's bytes. */
export interface PdfStream {
  /** The stream's dictionary (latin1), from its `obj` keyword to `stream`. */
  dictionary: string;
  /** Offset of the first data byte. */
  start: number;
  /** Offset just past the last data byte. */
  end: number;
}

/** How far back from `stream` a dictionary is looked for. */
const MAX_DICTIONARY = 64 * 1024;
const LENGTH = /\/Length\s+(\d{1,12})(?:\s+(\d{1,5})\s+R)?/;

/**
 * Lists the stream objects of a PDF by scanning its raw bytes for `stream` … `endstream`, the
 * way a reader recovers a damaged file (no cross-reference table needed). The data's extent is
 * its `/Length` (direct, or an indirect object stored plainly) when that lands on `endstream`,
 * else up to the next `endstream`. Streams never overlap and each byte is looked at a bounded
 * number of times, so time is linear in the file's size.
 */
export function* findPdfStreams(pdf: Uint8Array): Generator<PdfStream> {
  const bytes = Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength);
  const objects = new ObjectIndex(bytes);
  let at = 0;
  let floor = 0;
  for (;;) {
    const keyword = bytes.indexOf('stream', at, 'latin1');
    if (keyword === -1) return;
    at = keyword + 6;
    const start = dataStart(bytes, keyword);
    if (start === undefined) continue;
    const from = Math.max(floor, keyword - MAX_DICTIONARY);
    const window = bytes.subarray(from, keyword);
    const obj = window.lastIndexOf('obj', window.length, 'latin1');
    const dictionary = window.toString('latin1', obj === -1 ? 0 : obj + 3);
    const end = dataEnd(bytes, start, declaredLength(dictionary, objects));
    yield { dictionary, start, end };
    at = floor = end;
  }
}

/** Where data begins after a `stream` keyword (EOL: CRLF or LF), or undefined if no keyword. */
function dataStart(bytes: Buffer, keyword: number): number | undefined {
  const before = keyword === 0 ? 0x20 : bytes[keyword - 1];
  if (before !== 0x3e /* > */ && !isWhite(before)) return undefined; // `endstream`, `/streams`…
  let at = keyword + 6;
  if (bytes[at] === 0x0d) at += 1;
  if (bytes[at] === 0x0a) at += 1;
  return at > keyword + 6 ? at : undefined;
}

function dataEnd(bytes: Buffer, start: number, length: number | undefined): number {
  if (length !== undefined && start + length <= bytes.length) {
    let at = start + length;
    while (at < bytes.length && at < start + length + 4 && isWhite(bytes[at])) at += 1;
    if (bytes.toString('latin1', at, at + 9) === 'endstream') return start + length;
  }
  const end = bytes.indexOf('endstream', start, 'latin1');
  return end === -1 ? bytes.length : end;
}

function declaredLength(dictionary: string, objects: ObjectIndex): number | undefined {
  const match = LENGTH.exec(dictionary);
  if (match === null) return undefined;
  if (match[2] === undefined) return Number(match[1]);
  return objects.integer(`${match[1]} ${match[2]}`);
}

function isWhite(byte: number): boolean {
  return (
    byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09 || byte === 0x0c || byte === 0
  );
}

/** `N G obj` positions, built on first use (only PDFs with indirect `/Length` need it). */
class ObjectIndex {
  private offsets: Map<string, number> | undefined;

  constructor(private readonly bytes: Buffer) {}

  /** The integer that object `"N G"` holds, if it is a plain (uncompressed) integer object. */
  integer(reference: string): number | undefined {
    this.offsets ??= this.build();
    const at = this.offsets.get(reference);
    if (at === undefined) return undefined;
    const match = /^\s*(\d{1,12})\s+endobj/.exec(this.bytes.toString('latin1', at, at + 40));
    return match === null ? undefined : Number(match[1]);
  }

  private build(): Map<string, number> {
    const offsets = new Map<string, number>();
    const text = this.bytes.toString('latin1');
    for (let at = text.indexOf('obj'); at !== -1; at = text.indexOf('obj', at + 3)) {
      // "N G " just before: matched in a short slice, so the pattern never sees a long input.
      const head = /(\d{1,10})\s+(\d{1,5})\s+$/.exec(text.slice(Math.max(0, at - 24), at));
      // A later definition (an incremental update) replaces an earlier one.
      if (head !== null) offsets.set(`${head[1]} ${head[2]}`, at + 3);
    }
    return offsets;
  }
}
