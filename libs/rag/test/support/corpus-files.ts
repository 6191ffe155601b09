import { buildDocx } from '../__fixtures__/build-docx.js';
import { buildPdf } from '../__fixtures__/build-pdf.js';
import type { CorpusDocument } from '../__fixtures__/corpus.js';

/** A corpus document written out as one file of a given format. */
export interface CorpusFile {
  name: string;
  filename: string;
  content: Buffer;
}

const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;');

/** Wraps a paragraph into PDF lines of at most `width` characters. */
function wrap(paragraph: string, width = 90): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of paragraph.split(' ')) {
    if (line && line.length + word.length + 1 > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines;
}

/** Writes each document in turn as TXT, Markdown, HTML, DOCX and PDF (two pages). */
export function corpusFiles(corpus: CorpusDocument[]): CorpusFile[] {
  return corpus.map((doc, i) => {
    const text = doc.paragraphs.join('\n\n');
    switch (i % 5) {
      case 0:
        return { name: doc.name, filename: `${doc.name}.txt`, content: Buffer.from(text) };
      case 1:
        return { name: doc.name, filename: `${doc.name}.md`, content: Buffer.from(text) };
      case 2: {
        const body = doc.paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join('\n');
        const html = `<!doctype html><html><head><title>${doc.name}</title><script>var x = 1;</script></head><body><nav>Menu</nav>${body}</body></html>`;
        return { name: doc.name, filename: `${doc.name}.html`, content: Buffer.from(html) };
      }
      case 3:
        return { name: doc.name, filename: `${doc.name}.docx`, content: buildDocx(doc.paragraphs) };
      default: {
        const half = Math.ceil(doc.paragraphs.length / 2);
        const pages = [doc.paragraphs.slice(0, half), doc.paragraphs.slice(half)].map((page) =>
          page.map((p) => wrap(p)),
        );
        return { name: doc.name, filename: `${doc.name}.pdf`, content: buildPdf(pages) };
      }
    }
  });
}
