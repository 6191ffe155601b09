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

function walk(node: DomNode, out: string[], preformatted = false): void {
  if (node.type === 'text') {
    const data = node.data ?? '';
    out.push(preformatted ? data : data.replace(/\s+/g, ' '));
    return;
  }
  const name = node.name?.toLowerCase();
  if (name === 'br') {
    out.push('\n');
    return;
  }
  const block = name !== undefined && BLOCKS.has(name);
  if (block) out.push('\n\n');
  if (name === 'td' || name === 'th') out.push(' ');
  for (const child of node.children ?? []) walk(child, out, preformatted || name === 'pre');
  if (block) out.push('\n\n');
}
