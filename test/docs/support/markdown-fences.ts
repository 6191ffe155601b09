/** A fenced code block of a Markdown document. */
export interface Fence {
  /** The info string's first word in lower case (`ts`, `bash`), or `''` when there is none. */
  lang: string;
  /** 1-based line of the opening fence. */
  line: number;
  /** The code between the fences (the opening fence's indentation removed from each line). */
  code: string;
  /** The nearest non-blank line above the opening fence, if any. */
  above?: { line: number; text: string };
}

/** A line of a Markdown document outside every fenced code block. */
export interface ProseLine {
  /** 1-based line number. */
  line: number;
  /** The line without its surrounding whitespace. */
  text: string;
}

/** What {@link splitMarkdown} finds. */
export interface MarkdownParts {
  fences: Fence[];
  prose: ProseLine[];
}

// Any indentation is accepted (CommonMark allows up to three spaces, more inside list items):
// a code block must never escape the README check by being indented.
const OPENING = /^(\s*)(`{3,}|~{3,})\s*([^\s`]*)/;

/**
 * Splits a Markdown document into its fenced code blocks and the lines outside them. A fence
 * closes on a line of the same character, at least as long, with nothing else on it; an unclosed
 * fence runs to the end of the document, as CommonMark renders it.
 *
 * @example
 * splitMarkdown('Intro\n\n```ts\nconst x = 1;\n```\n').fences;
 * // [{ lang: 'ts', line: 3, code: 'const x = 1;', above: { line: 1, text: 'Intro' } }]
 */
export function splitMarkdown(markdown: string): MarkdownParts {
  const lines = markdown.split(/\r?\n/);
  const fences: Fence[] = [];
  const prose: ProseLine[] = [];
  let above: ProseLine | undefined;
  for (let index = 0; index < lines.length; index += 1) {
    const opening = OPENING.exec(lines[index]);
    if (!opening) {
      const text = lines[index].trim();
      prose.push({ line: index + 1, text });
      if (text !== '') above = { line: index + 1, text };
      continue;
    }
    const [, indent, marker, info] = opening;
    const closing = new RegExp(`^\\s*${marker[0]}{${marker.length},}\\s*$`);
    const body: string[] = [];
    let end = index + 1;
    while (end < lines.length && !closing.test(lines[end])) {
      body.push(lines[end].startsWith(indent) ? lines[end].slice(indent.length) : lines[end]);
      end += 1;
    }
    fences.push({
      lang: info.toLowerCase(),
      line: index + 1,
      code: body.join('\n'),
      ...(above ? { above } : {}),
    });
    // The closing fence (or the end of the document) is what the next block sees above it.
    above = { line: end + 1, text: (lines[end] ?? '').trim() };
    index = end;
  }
  return { fences, prose };
}
