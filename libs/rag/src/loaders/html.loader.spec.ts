import { describe, expect, it } from '@jest/globals';
import { htmlToText } from './html.loader.js';

describe('htmlToText', () => {
  it('keeps blocks apart, drops scripts and navigation, keeps preformatted line breaks', () => {
    expect(
      htmlToText(
        '<title>T</title><nav>menu</nav><h1>Head</h1><p>one  <b>two</b><br>three</p>' +
          '<script>x()</script><pre>a\n  b</pre><table><tr><td>c1</td><td>c2</td></tr></table>',
      ),
    ).toBe('T\n\nHead\n\none two\nthree\n\na\nb\n\nc1 c2');
  });

  it('reads text under 30,000 nested elements without overflowing the call stack', () => {
    // <marquee> nests cheaply in the HTML parser (it bounds its scope); the old recursive walk
    // threw "Maximum call stack size exceeded" at about 9,000 levels.
    expect(htmlToText(`<body>${'<marquee>'.repeat(30_000)}deep</body>`)).toBe('deep');
  });
});
