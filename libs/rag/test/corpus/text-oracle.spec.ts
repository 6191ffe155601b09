import { describe, expect, it } from '@jest/globals';
import { distinctivePhrase, htmlVisibleText, wordCoverage } from './text-oracle.js';

describe('the real-document test oracle', () => {
  it('reads the visible text of HTML: no head, scripts or styles; entities decoded', () => {
    const html =
      '<html><head><title>T</title><style>p{}</style></head><body><script>var hidden = 1;</script>' +
      '<!-- note --><p>Fish &amp; chips&#160;&#x263A; &lt;b&gt;</p></body></html>';
    expect(htmlVisibleText(html).replace(/ +/g, ' ').trim()).toBe('Fish & chips\u00a0☺ <b>');
  });

  it('counts the share of distinct 4+ letter words found, whitespace and case ignored', () => {
    expect(wordCoverage('Alpha beta gamma delta alpha', 'ALPHA gam\nma')).toBe(2 / 4); // alpha and gamma of alpha, beta, gamma, delta
    expect(wordCoverage('管理者ハンドブック です', '管理者ハン\nドブック')).toBe(1);
    expect(wordCoverage('a bc', 'nothing')).toBe(1);
  });

  it('picks a prose phrase no other document has', () => {
    const shared = 'This sentence appears in both documents and is long enough to count.';
    const own = 'Only the first document explains how the harbour crane was repaired last spring.';
    const phrase = distinctivePhrase(`${shared}\n${own}\n${shared}`, [`${shared}\nother text`]);
    expect(phrase).toBe(own);
    expect(distinctivePhrase(shared, [shared])).toBeUndefined();
  });
});
