/**
 * Common English words that say nothing about a passage's topic. Dropped by the offline
 * embedder and BM25 so they neither match nor dilute scores.
 */
const STOPWORDS = new Set(
  (
    'a about above after again against all am an and any are as at be because been before being ' +
    'below between both but by can could did do does doing down during each few for from further ' +
    'had has have having he her here hers herself him himself his how i if in into is it its ' +
    'itself just me more most my myself no nor not now of off on once only or other our ours ' +
    'ourselves out over own same she should so some such than that the their theirs them ' +
    'themselves then there these they this those through to too under until up very was we were ' +
    'what when where which while who whom why will with would you your yours yourself yourselves'
  ).split(' '),
);

const WORD = /[\p{L}\p{N}]+/gu;
const MARKS = /\p{M}+/gu;

/**
 * Splits text into search terms: Unicode words, lower-cased, accents folded (`café` → `cafe`),
 * English stop words dropped, light English stemming (`policies` → `policy`,
 * `booking` → `book`). Shared by the offline embedder and BM25 so both see the same terms.
 *
 * @example
 * tokenize('The Booking policies of Zürich'); // ['book', 'policy', 'zurich']
 */
export function tokenize(text: string): string[] {
  const out: string[] = [];
  for (const word of words(text)) {
    const term = normalizeTerm(word);
    if (term !== null) out.push(term);
  }
  return out;
}

/** The Unicode words of a text, lower-cased with accents folded, before stop words and stemming. */
export function words(text: string): string[] {
  return text.normalize('NFKD').replace(MARKS, '').toLowerCase().match(WORD) ?? [];
}

/** One lower-cased word → its search term, or `null` for a stop word. */
export function normalizeTerm(word: string): string | null {
  if (STOPWORDS.has(word)) return null;
  return stem(word);
}

/**
 * A light English suffix stripper, applied in turn: plural (`policies` → `policy`), `-ing`/`-ed`,
 * `-ly`, then a final `e`, so `require`, `requires`, `required`, `requiring` all give `requir`.
 * Words of three letters or fewer and words with digits are kept as they are.
 */
export function stem(word: string): string {
  if (word.length <= 3 || /\d/.test(word)) return word;
  let w = word;
  if (w.endsWith('ies') && w.length > 4) w = `${w.slice(0, -3)}y`;
  else if (w.endsWith('sses')) w = w.slice(0, -2);
  else if (w.endsWith('s') && !/(ss|us|is)$/.test(w)) w = w.slice(0, -1);
  if (w.endsWith('ing') && w.length > 5) w = undouble(w.slice(0, -3));
  else if (w.endsWith('ed') && w.length > 4) w = undouble(w.slice(0, -2));
  else if (w.endsWith('ly') && w.length > 5) w = w.slice(0, -2);
  if (w.endsWith('e') && w.length > 4) w = w.slice(0, -1);
  return w;
}

/** `stopp` → `stop`, `plann` → `plan` (but `fall`, `pass` keep their double letter). */
function undouble(stemmed: string): string {
  return /([^aeioulsz])\1$/.test(stemmed) ? stemmed.slice(0, -1) : stemmed;
}
