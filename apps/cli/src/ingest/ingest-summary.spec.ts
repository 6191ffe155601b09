import { describe, expect, it } from '@jest/globals';
import { formatSummary, IngestTally, progressLine } from './ingest-summary.js';

describe('IngestTally', () => {
  it('counts outcomes, keeps the first line of each reason and sorts failures by file', () => {
    const tally = new IngestTally('queue', 'docs', 4);
    tally.completed({ created: true });
    tally.completed({ created: false });
    tally.failed('z.pdf', 'not a readable PDF\nstack...');
    tally.failed('a.docx', 'empty');
    const summary = tally.summary();
    expect(summary).toMatchObject({ mode: 'queue', files: 4, added: 1, unchanged: 1, failed: 2 });
    expect(summary.failures).toEqual([
      { file: 'a.docx', reason: 'empty' },
      { file: 'z.pdf', reason: 'not a readable PDF' },
    ]);
    expect(formatSummary(summary)).toEqual([
      expect.stringMatching(
        /^Ingested 4 files from docs through the queue in \d+\.\d s: 1 added, 1 unchanged, 2 failed \(\d+\.\d documents\/s\)$/,
      ),
      '  failed: a.docx: empty',
      '  failed: z.pdf: not a readable PDF',
    ]);
  });

  it('leaves files done before the run out of the rate', () => {
    const tally = new IngestTally('queue', 'docs', 3);
    tally.unchanged = 3;
    tally.alreadyDone = 3;
    expect(tally.rate()).toBe(0);
  });

  it('draws a bar on a terminal and counts otherwise', () => {
    const tally = new IngestTally('in-process', 'docs', 4);
    tally.completed({ created: true });
    tally.completed({ created: true });
    expect(progressLine(tally, true)).toMatch(/^\[#{12}-{12}\] 2\/4 files \(2 added/);
    expect(progressLine(tally, false)).toMatch(/^Ingesting: 2\/4 files \(2 added, 0 unchanged/);
  });
});
