import { constants, createInflate } from 'node:zlib';
import { DocumentTooLargeError } from '../rag.errors.js';
import type { ResolvedLoadOptions } from './load-options.js';
import { findPdfStreams } from './pdf-streams.js';

const FILTER = /\/Filter\s*(\[[^\]]*\]|\/[^\s/[\]<>()]+)/;

/**
 * Refuses a PDF whose compressed streams would inflate past `maxInflatedBytes` in total, before
 * PDF.js (which has no such limit) reads it: every stream whose first filter is `FlateDecode`
 * is inflated by zlib and only its size is kept, the output thrown away as it comes, and the
 * work stops as soon as the total passes the limit. Images count too: a stream's dictionary
 * can claim `/Subtype /Image` and still be read as page content, so no label is trusted.
 * Truncated or damaged streams count for what they yield.
 * Time is linear in the file's size plus the inflated bytes (at most the limit); memory stays
 * at zlib's buffers, whatever the streams claim.
 *
 * Throws a 413 `DocumentTooLargeError` past the limit.
 */
export async function assertPdfInflatesWithin(
  pdf: Uint8Array,
  name: string,
  { maxInflatedBytes, limitSetting }: ResolvedLoadOptions,
): Promise<void> {
  let total = 0;
  for (const stream of findPdfStreams(pdf)) {
    if (!isFlate(stream.dictionary)) continue;
    const data = pdf.subarray(stream.start, stream.end);
    total += await inflatedSize(data, maxInflatedBytes - total);
    if (total > maxInflatedBytes) {
      throw new DocumentTooLargeError(
        name,
        'its compressed content',
        maxInflatedBytes,
        limitSetting,
      );
    }
  }
}

function isFlate(dictionary: string): boolean {
  const filter = FILTER.exec(dictionary)?.[1];
  if (filter === undefined) return false;
  const first = /\/([^\s/[\]<>()]+)/.exec(filter)?.[1];
  return first === 'FlateDecode' || first === 'Fl';
}

/**
 * How many bytes a zlib stream inflates to, counting up to `budget + 1` and no further.
 * Decoding errors end the count (a damaged tail yields what came before it), as PDF.js does.
 */
function inflatedSize(data: Uint8Array, budget: number): Promise<number> {
  return new Promise((resolve) => {
    const inflater = createInflate({ finishFlush: constants.Z_SYNC_FLUSH });
    let size = 0;
    const finish = (): void => {
      inflater.removeAllListeners('data');
      inflater.destroy();
      resolve(size);
    };
    inflater.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > budget) finish();
    });
    inflater.on('end', finish);
    inflater.on('error', finish);
    inflater.end(data);
  });
}
