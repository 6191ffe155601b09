import { existsSync, readFileSync } from 'node:fs';

/** Documentation files every install of the project has, written by other people. */
const INSTALLED_DOCS = [
  'typescript/LICENSE.txt',
  'typescript/ThirdPartyNoticeText.txt',
  'commander/Readme.md',
  'reflect-metadata/README.md',
  'fast-check/README.md',
  '@nestjs/core/Readme.md',
];

/** Largest sample: whole-text segmentation, the oracle, is still quick below this. */
const MAX_SAMPLE = 20_000;

/** Real prose of moderate size, by name: installed docs plus a few scripts and layouts. */
export function sampleTexts(): [string, string][] {
  const installed = INSTALLED_DOCS.map((name): [string, URL] => [
    name,
    new URL(`../../../../../node_modules/${name}`, import.meta.url),
  ])
    .filter(([, url]) => existsSync(url))
    .map(([name, url]): [string, string] => [name, readFileSync(url, 'utf8').slice(0, MAX_SAMPLE)]);
  return [...installed, ...Object.entries(WRITTEN)];
}

const WRITTEN: Record<string, string> = {
  'wrapped PDF lines, CR LF':
    'The committee met on 3 March.\r\nIt agreed to raise the budget by\r\n4.5 percent (see Annex B.) and to\r\nreview it in May. Dr. Smith objected!\r\n\r\nVotes: 7 for, 2 against.',
  russian:
    'Это первое предложение. Это второе предложение! А это третье? «Цитата.» Конец…\n\nНовый абзац т. е. продолжение.',
  chinese: '我们今天去公园散步。天气很好！你明天还来吗？“好的。”他说。\n\n第二段：没有句号的结尾',
  hindi: 'यह पहला वाक्य है। यह दूसरा वाक्य है! क्या यह तीसरा है? हाँ।',
  thai: 'วันนี้อากาศดีมาก เราไปเดินเล่นที่สวนสาธารณะ ฉันชอบมาก',
  decomposed: 'Cafe\u0301 au lait. Voila\u0300 ! Na\u0308ive? Ou\u0300 est-il.\u00a0Fin.',
  'code and lists':
    '1. Install it: `npm i x`.\n2. Run `x --help`.\n\n- e.g. a.b.c\n- i.e. (foo.) "bar." baz\n\nSee https://example.com/a.b?c=d. Done.',
};
