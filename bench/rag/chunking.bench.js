/**
 * Chunker benchmark: seconds per MB of `chunkText` (size 1000, overlap 150) on prose and on the
 * shapes that made whole-text sentence segmentation super-linear (one huge paragraph, Chinese,
 * very short sentences, tiny paragraphs, digits, whitespace runs), at 80 KB, 320 KB, 1 MB and
 * 4 MB. Linear time shows as a flat row. Runs on the compiled package:
 *
 *   npm run build && node bench/rag/chunking.bench.js
 *   node bench/rag/chunking.bench.js --sizes=80,320 --only=chinese
 *
 * Texts are generated deterministically; figures are printed as a table; nothing is asserted and
 * no results file is written.
 */
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';

const dist = process.env.RAG_BENCH_DIST ?? new URL('../../dist/', import.meta.url).pathname;
const { chunkText } = await import(join(dist, 'libs/rag/src/index.js'));

const option = (name) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1];
const sizesKb = (option('sizes') ?? '80,320,1024,4096').split(',').map(Number);
const only = option('only');

/** Deterministic pseudo-random numbers in [0, 1). */
function random(seed) {
  let state = seed >>> 0;
  return () => (state = (state * 1664525 + 1013904223) >>> 0) / 2 ** 32;
}

const WORDS = (
  'the of and a to in is was that for it as with his he be on by at had this which from or ' +
  'have an they not but are were been one their all more has would there when who will no if ' +
  'out so said what up its about into than them can only other new some could time these two'
).split(' ');

/** English-like prose: sentences of 6–20 words, a paragraph every `every` sentences (0: none). */
function prose(length, { every = 8, wrap = 0 } = {}) {
  const next = random(1);
  const parts = [];
  let total = 0;
  for (let n = 1; total < length; n += 1) {
    const words = Array.from({ length: 6 + Math.floor(next() * 14) }, () => {
      const word = WORDS[Math.floor(next() * WORDS.length)];
      return next() < 0.03 ? `${word} (e.g. 3.5 km)` : word;
    });
    words[0] = words[0][0].toUpperCase() + words[0].slice(1);
    const end = next() < 0.85 ? '.' : next() < 0.5 ? '?' : '!';
    const part = `${words.join(' ')}${end}${every && n % every === 0 ? '\n\n' : ' '}`;
    parts.push(part);
    total += part.length;
  }
  const text = parts.join('').slice(0, length);
  return wrap ? text.replace(new RegExp(`(.{${wrap}}\\S*) `, 'g'), '$1\n') : text;
}

const repeat = (unit) => (length) => unit.repeat(Math.ceil(length / unit.length)).slice(0, length);

const SHAPES = {
  prose: (n) => prose(n),
  'prose, one paragraph': (n) => prose(n, { every: 0 }),
  'PDF lines, no blank line': (n) => prose(n, { every: 0, wrap: 80 }),
  'no punctuation': (n) => prose(n, { every: 0 }).replace(/[.?!,()]/g, ''),
  chinese: repeat('我们今天去公园散步，看见很多人在湖边钓鱼。天气很好！你明天还来吗？'),
  'letters, no space': repeat('abcdefghij'),
  'digits, no space': repeat('0123456789'),
  'short sentences': repeat('A. '),
  'tiny paragraphs': repeat('a.\n\n'),
  'whitespace runs': repeat(`Word. ${' '.repeat(65_536)}`),
};

const rows = [];
for (const [name, make] of Object.entries(SHAPES)) {
  if (only && !name.startsWith(only)) continue;
  const row = [name];
  for (const kb of sizesKb) {
    const text = make(kb * 1024);
    const started = performance.now();
    const chunks = chunkText({ documentId: 'd', text }, { size: 1000, overlap: 150 });
    const seconds = (performance.now() - started) / 1000;
    row.push(`${(seconds / (text.length / 2 ** 20)).toFixed(2)} (${seconds.toFixed(2)} s)`);
    if (chunks.length === 0) throw new Error(`no chunks for ${name}`);
  }
  rows.push(row);
  console.error(`done: ${name}`);
}

const header = ['shape', ...sizesKb.map((kb) => `${kb} KB: s/MB (s)`)];
console.log(
  `chunkText s/MB on node ${process.version}, ${cpus().length} CPUs, load ${loadavg()[0].toFixed(2)}\n`,
);
console.log(`| ${header.join(' | ')} |\n|${header.map(() => '---').join('|')}|`);
for (const row of rows) console.log(`| ${row.join(' | ')} |`);
