const OTHER_WHITESPACE = /^\s$/u;

/**
 * Whether the UTF-16 code unit `code` is whitespace as regular expressions' `\s` sees it, without
 * building a one-character string per test (the chunker walks whole runs of spaces with it).
 *
 * @example
 * isWhitespace(' '.charCodeAt(0)); // true
 */
export function isWhitespace(code: number): boolean {
  if (code < 0x80) return code === 0x20 || (code >= 0x09 && code <= 0x0d);
  return OTHER_WHITESPACE.test(String.fromCharCode(code));
}
