import { looksLikeText } from './text-decoding.js';

/** What a file's first bytes say it is. `text` is any UTF-8/UTF-16 text. */
export type SniffedContent =
  | 'pdf'
  | 'docx'
  | 'zip'
  | 'ole'
  | 'png'
  | 'jpeg'
  | 'gif'
  | 'webp'
  | 'gzip'
  | 'executable'
  | 'text'
  | 'binary';

const DESCRIPTIONS: Record<SniffedContent, string> = {
  pdf: 'a PDF document',
  docx: 'a Word (DOCX) document',
  zip: 'a ZIP archive',
  ole: 'a legacy Office (OLE) file',
  png: 'a PNG image',
  jpeg: 'a JPEG image',
  gif: 'a GIF image',
  webp: 'a WebP image',
  gzip: 'a gzip archive',
  executable: 'an executable',
  text: 'text',
  binary: 'binary data',
};

/** Words for error messages: `a PNG image`, `a ZIP archive`. */
export function describeContent(content: SniffedContent): string {
  return DESCRIPTIONS[content];
}

const startsWith = (buffer: Uint8Array, bytes: readonly number[], at = 0): boolean =>
  bytes.every((byte, i) => buffer[at + i] === byte);

const ascii = (text: string): number[] => [...text].map((c) => c.charCodeAt(0));

/**
 * Identifies a file from its magic bytes. A ZIP is `docx` only when it holds a
 * `word/document.xml` part (entry names are stored uncompressed in ZIP headers).
 */
export function sniffContent(buffer: Uint8Array): SniffedContent {
  const head = Buffer.from(buffer.buffer, buffer.byteOffset, Math.min(buffer.length, 1024));
  // The PDF header may follow a little junk; readers accept it within the first KiB.
  if (head.includes('%PDF-')) return 'pdf';
  if (
    startsWith(buffer, [0x50, 0x4b, 0x03, 0x04]) ||
    startsWith(buffer, [0x50, 0x4b, 0x05, 0x06])
  ) {
    return Buffer.from(buffer.buffer, buffer.byteOffset, buffer.length).includes(
      'word/document.xml',
    )
      ? 'docx'
      : 'zip';
  }
  if (startsWith(buffer, [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1])) return 'ole';
  if (startsWith(buffer, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'png';
  if (startsWith(buffer, [0xff, 0xd8, 0xff])) return 'jpeg';
  if (startsWith(buffer, ascii('GIF87a')) || startsWith(buffer, ascii('GIF89a'))) return 'gif';
  if (startsWith(buffer, ascii('RIFF')) && startsWith(buffer, ascii('WEBP'), 8)) return 'webp';
  if (startsWith(buffer, [0x1f, 0x8b])) return 'gzip';
  if (startsWith(buffer, [0x7f, 0x45, 0x4c, 0x46]) || startsWith(buffer, ascii('MZ'))) {
    return 'executable';
  }
  return looksLikeText(buffer) ? 'text' : 'binary';
}

/**
 * True for a ZIP (a DOCX) cut short: every complete archive ends with an end-of-central-
 * directory record (`PK\x05\x06`) within its last 65,557 bytes (22 plus a comment of at most
 * 65,535); a truncated download or copy has lost it.
 */
export function isTruncatedZip(buffer: Uint8Array): boolean {
  const from = Math.max(0, buffer.length - 65_557);
  const tail = Buffer.from(buffer.buffer, buffer.byteOffset + from, buffer.length - from);
  return !tail.includes(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
}
