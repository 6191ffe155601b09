/**
 * A deliberately small, independent reading of real documents, to check the loaders against:
 * it shares no code with them (no cheerio, no marked), so a loader bug cannot hide in both.
 */

const NAMED_ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
};

/**
 * The visible text of an HTML page: comments, `<head>`, scripts and styles dropped, every tag
 * replaced by a space, numeric and the common named entities decoded.
 */
export function htmlVisibleText(html: string): string {
  return html
    .replace(/<!--[\s\S]*?-->/g, ' ')
    .replace(/<(head|script|style)\b[\s\S]*?<\/\1\s*>/gi, ' ')
    .replace(/<[^>]*>/g, ' ')
    .replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (entity: string, name: string) => {
      if (name[0] !== '#') return NAMED_ENTITIES[name.toLowerCase()] ?? entity;
      const code =
        name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : +name.slice(1);
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : entity;
    });
}

/** Text compared without case, compatibility forms (PDF ligatures) or any whitespace. */
export function compact(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[\s\u00ad]+/g, '');
}

/** The distinct runs of at least `min` letters (any script), lower-cased, NFKC. */
export function distinctWords(text: string, min = 4): Set<string> {
  const words =
    text
      .normalize('NFKC')
      .toLowerCase()
      .match(/\p{L}+/gu) ?? [];
  return new Set(words.filter((word) => [...word].length >= min));
}

/**
 * The share of `reference`'s distinct words (4+ letters) that occur in `text`, whitespace
 * ignored: a PDF breaks lines inside CJK runs and words may be split differently, but the
 * letters of each word must be there, in order. 1 when `reference` has no such word.
 */
export function wordCoverage(reference: string, text: string): number {
  const words = distinctWords(reference);
  if (words.size === 0) return 1;
  const haystack = compact(text);
  let found = 0;
  for (const word of words) if (haystack.includes(word)) found += 1;
  return found / words.size;
}

/**
 * A phrase only this document has: a line or sentence of plain prose (8 to 16 words, or 16 to
 * 40 characters of Chinese or Japanese) taken from the middle of `text` outwards,
 * which occurs (whitespace and case ignored) in none of `others`. Undefined if there is none.
 */
export function distinctivePhrase(text: string, others: readonly string[]): string | undefined {
  const candidates = text
    .split(/\n|(?<=[.!?。！？])\s*/u)
    .map((line) => line.replace(/\s+/g, ' ').trim())
    .filter(isProse);
  const compactOthers = others.map(compact);
  const middle = Math.floor(candidates.length / 2);
  for (let step = 0; step < candidates.length; step += 1) {
    const at = middle + (step % 2 === 0 ? step / 2 : -(step + 1) / 2);
    const candidate = candidates[at];
    if (candidate === undefined) continue;
    const phrase = trimPhrase(candidate);
    const key = compact(phrase);
    if (!compactOthers.some((other) => other.includes(key))) return phrase;
  }
  return undefined;
}

function isProse(line: string): boolean {
  if (!/^[\p{L}\p{N}\p{M} ,;:'’()、，。.!?-]+$/u.test(line)) return false;
  const words = line.split(' ').filter((word) => /\p{L}/u.test(word));
  const spaceless = (line.match(/[\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}]/gu) ?? []).length;
  return words.length >= 8 || spaceless >= 16;
}

function trimPhrase(line: string): string {
  const words = line.split(' ');
  if (words.length >= 8) return words.slice(0, 16).join(' ');
  return [...line].slice(0, 40).join('');
}
