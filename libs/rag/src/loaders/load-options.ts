import { ConfigError } from '../../../providers/src/internal.js';

/** Default of {@link LoadOptions.maxInflatedBytes}: 64 MiB. */
export const DEFAULT_MAX_INFLATED_BYTES = 64 * 1024 * 1024;

/**
 * Options of `loadDocument` / `loadAs`: bounds on what reading one file may cost.
 *
 * @example
 * await loadDocument(bytes, 'report.docx', { maxInflatedBytes: 16 * 1024 * 1024 });
 */
export interface LoadOptions {
  /**
   * The most bytes a compressed document may inflate to: a DOCX's text part
   * (`word/document.xml`), or the sum of a PDF's compressed (FlateDecode) streams other than
   * images. Past it, loading fails with a 413 `DocumentTooLargeError` before the bytes are
   * inflated (or as soon as the limit is reached), so a "zip bomb" costs neither the memory
   * nor the time. A 300-page Word book has a text part of about 5–10 MiB; a text-heavy PDF's
   * streams rarely pass a few times its file size.
   * @default 67108864 (64 MiB)
   */
  maxInflatedBytes?: number;
  /**
   * How error messages tell the user to raise the limit, e.g. `rag.max_inflated_bytes` when an
   * app exposes it as a setting.
   * @default "maxInflatedBytes"
   */
  limitSetting?: string;
}

/** {@link LoadOptions} with every default applied. */
export interface ResolvedLoadOptions {
  /** See {@link LoadOptions.maxInflatedBytes}. */
  maxInflatedBytes: number;
  /** See {@link LoadOptions.limitSetting}. */
  limitSetting: string;
}

/**
 * Applies the defaults of {@link LoadOptions} and checks them: `maxInflatedBytes` must be a
 * positive safe integer (else a `ConfigError`, a mistake in the caller's code or settings).
 */
export function resolveLoadOptions(options: LoadOptions = {}): ResolvedLoadOptions {
  const maxInflatedBytes = options.maxInflatedBytes ?? DEFAULT_MAX_INFLATED_BYTES;
  if (!Number.isSafeInteger(maxInflatedBytes) || maxInflatedBytes <= 0) {
    throw new ConfigError(
      'maxInflatedBytes',
      `must be a positive whole number of bytes (got ${String(maxInflatedBytes)})`,
      'the document loader options',
    );
  }
  return { maxInflatedBytes, limitSetting: options.limitSetting ?? 'maxInflatedBytes' };
}
