import { describe, expect, it } from '@jest/globals';
import { loadAs } from './load-document.js';

describe('loadAs', () => {
  it('answers a Markdown parser crash (10,000 nested blockquotes) with a 422, not a RangeError', async () => {
    await expect(
      loadAs('markdown', Buffer.from(`${'> '.repeat(10_000)}deep`), 'deep.md'),
    ).rejects.toMatchObject({
      statusCode: 422,
      reason: 'corrupt',
      message: '"deep.md" could not be read as Markdown (nested too deeply?)',
    });
  });

  it('still reads ordinary nested quotes and lists', async () => {
    const doc = await loadAs('markdown', Buffer.from('> > quoted\n\n- a\n  - b\n'), 'ok.md');
    expect(doc.text).toBe('quoted\n\na\n\nb');
  });
});
