import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';

const page = (template: string) =>
  readFileSync(new URL(`../../templates/${template}/public/index.html`, import.meta.url), 'utf8');

// The page is driven in Chromium by apps/cli/test/templates-{chatbot,agent}.e2e-spec.ts; these
// checks keep the two copies one page and its rendering free of HTML parsing.
describe('the chat page of the chatbot and agent templates', () => {
  it('is the same file in both templates (it reads the app name from /model; tool steps show only where a stream sends tool events)', () => {
    expect(page('agent')).toBe(page('chatbot'));
  });

  it('never parses text as HTML: no innerHTML, outerHTML, insertAdjacentHTML or document.write', () => {
    const script = page('chatbot');
    for (const sink of ['innerHTML', 'outerHTML', 'insertAdjacentHTML', 'document.write']) {
      expect({ sink, found: script.includes(sink) }).toEqual({ sink, found: false });
    }
  });

  it('has a Stop button, a model label, and asks the server for the history and the model', () => {
    const script = page('chatbot');
    expect(script).toContain('<button id="stop" type="button" hidden>Stop</button>');
    expect(script).toContain('<p id="model">');
    expect(script).toContain("fetch('/history')");
    expect(script).toContain("fetch('/model')");
  });
});
