/** XML that is not well formed: a stray `<`, an end tag that closes the wrong element. */
export class XmlFormatError extends Error {
  override readonly name = 'XmlFormatError';
}
