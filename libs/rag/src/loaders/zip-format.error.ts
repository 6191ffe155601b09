/** A ZIP archive whose structure cannot be read: truncated, damaged or not a ZIP at all. */
export class ZipFormatError extends Error {
  override readonly name = 'ZipFormatError';
}
