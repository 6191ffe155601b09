import { load } from 'cheerio';
import type { LoadedDocument } from '../document.types.js';
import { normalizeText } from './text-decoding.js';

/** Elements whose content is never document text. */
const DROPPED = 'script, style, nav, noscript, template, svg, iframe, object, head > *:not(title)';

/** Elements that start a new paragraph. */
const BLOCKS = new Set([
  'address',
  'article',
  'aside',
  'blockquote',
  'body',
  'caption',
  'dd',
  'details',
  'div',
  'dl',
  'dt',
  'fieldset',
  'figcaption',
  'figure',
  'footer',
  'form',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'header',
  'hr',
  'li',
  'main',
  'ol',
  'p',
  'pre',
  'section',
  'summary',
  'table',
  'title',
  'tr',
  'ul',
]);

/** The parts of a parsed DOM node this loader reads. */
interface DomNode {
  type: string;
  name?: string;
  data?: string;
  children?: DomNode[];
}

/**
 * Extracts the readable text of an HTML page with `cheerio`: scripts, styles, navigation and
 * other non-content elements are removed, block elements (`p`, headings, list items, table rows…)
 * become paragraphs, `<br>` a line break, and runs of whitespace collapse to one space. The
 * `<title>` is kept as the first paragraph.
 */
export function htmlToText(html: string): string {
  const $ = load(html);
  $(DROPPED).remove();
  const parts: string[] = [];
  walk($.root()[0], parts);
  return normalizeText(
    parts
      .join('')
      .split('\n')
      .map((line) => line.replace(/[ \t]+/g, ' ').trim())
      .join('\n'),
  );
}

/** Loads an HTML file (see {@link htmlToText}). */
export function loadHtml(html: string): LoadedDocument {
  return { type: 'html', text: htmlToText(html) };
}

/** A node still to visit, or the end of a block whose closing break is still to write. */
type Step = { node: DomNode; preformatted: boolean } | { close: string };

/**
 * Writes the text of `root` depth-first with an explicit stack, not recursion: a page of
 * 100,000 nested elements must not overflow the call stack.
 */
function walk(root: DomNode, out: string[]): void {
  const steps: Step[] = [{ node: root, preformatted: false }];
  for (let step = steps.pop(); step !== undefined; step = steps.pop()) {
    if ('close' in step) {
      out.push(step.close);
      continue;
    }
    const { node, preformatted } = step;
    if (node.type === 'text') {
      const data = node.data ?? '';
      out.push(preformatted ? data : data.replace(/\s+/g, ' '));
      continue;
    }
    const name = node.name?.toLowerCase();
    if (name === 'br') {
      out.push('\n');
      continue;
    }
    const block = name !== undefined && BLOCKS.has(name);
    if (block) out.push('\n\n');
    if (name === 'td' || name === 'th') out.push(' ');
    if (block) steps.push({ close: '\n\n' });
    const children = node.children ?? [];
    const inner = preformatted || name === 'pre';
    for (let i = children.length - 1; i >= 0; i -= 1) {
      steps.push({ node: children[i], preformatted: inner });
    }
  }
}
