import { Marked } from 'marked';
import type { LoadedDocument } from '../document.types.js';
import { htmlToText } from './html.loader.js';

const markdown = new Marked({ gfm: true });
const FRONT_MATTER = /^---\r?\n[\s\S]*?\r?\n---\r?\n/;

/**
 * Loads a Markdown file: YAML front matter is dropped, the rest is rendered with `marked` and
 * reduced to text like an HTML page, so syntax (`#`, `**`, link targets, table pipes) disappears
 * while headings, paragraphs, list items and code blocks stay separate paragraphs.
 */
export function loadMarkdown(source: string): LoadedDocument {
  const html = markdown.parse(source.replace(FRONT_MATTER, ''), { async: false });
  return { type: 'markdown', text: htmlToText(html) };
}
