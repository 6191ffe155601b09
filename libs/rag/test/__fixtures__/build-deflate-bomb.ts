import { constants, deflateRawSync } from 'node:zlib';

/** Options of {@link deflateRepeated}. */
export interface DeflateRepeatedOptions {
  /** Wrap in a zlib header and trailer (as PDF's FlateDecode wants) instead of raw deflate. */
  zlib?: boolean;
}

/**
 * Raw deflate data (or zlib with `zlib: true`) that inflates to `unit` repeated `times` times,
 * built without ever holding the inflated bytes: `unit` is deflated once as a block that ends
 * on a full flush (so it depends on nothing before it), that block is repeated, and an empty
 * final block closes the stream. A 1 KiB unit repeated a million times (1 GiB) takes ~1 MB.
 * The zlib trailer's checksum is left at zero: readers that check it fail only after
 * inflating everything.
 */
export function deflateRepeated(
  unit: Buffer,
  times: number,
  options: DeflateRepeatedOptions = {},
): Buffer {
  const block = deflateRawSync(unit, { finishFlush: constants.Z_FULL_FLUSH });
  const parts: Buffer[] = [];
  if (options.zlib) parts.push(Buffer.from([0x78, 0x9c]));
  for (let i = 0; i < times; i += 1) parts.push(block);
  parts.push(deflateRawSync(Buffer.alloc(0)));
  if (options.zlib) parts.push(Buffer.alloc(4));
  return Buffer.concat(parts);
}
