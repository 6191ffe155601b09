import { describe, expect, it } from '@jest/globals';
import {
  formatSnippetDirective,
  isSnippetComment,
  parseSnippetDirective,
} from './snippet-directive.js';

describe('parseSnippetDirective', () => {
  it('reads the three forms', () => {
    expect(parseSnippetDirective('<!-- snippet: runnable chat-memory -->')).toEqual({
      form: 'runnable',
      name: 'chat-memory',
    });
    expect(parseSnippetDirective('<!--snippet:compile-only-->')).toEqual({ form: 'compile-only' });
    expect(
      parseSnippetDirective('  <!-- snippet: fragment ( app,llm , ChatController ) -->'),
    ).toEqual({
      form: 'fragment',
      assumes: ['app', 'llm', 'ChatController'],
    });
  });

  it.each([
    ['<!-- snippet: runnable -->', /unknown snippet form "runnable"/],
    ['<!-- snippet: runnable Chat Memory -->', /unknown snippet form/],
    ['<!-- snippet: skip -->', /unknown snippet form "skip"/],
    ['<!-- snippet: fragment () -->', /fragment must list identifiers/],
    ['<!-- snippet: fragment (app, 1llm) -->', /fragment must list identifiers/],
    ['<!-- snippet: compile-only', /not a snippet comment/],
  ])('refuses %s', (line, message) => {
    expect(() => parseSnippetDirective(line)).toThrow(message);
  });

  it('round-trips through formatSnippetDirective', () => {
    for (const body of ['runnable translator', 'compile-only', 'fragment (app, llm)']) {
      expect(formatSnippetDirective(parseSnippetDirective(`<!-- snippet: ${body} -->`))).toBe(body);
    }
  });
});

describe('isSnippetComment', () => {
  it('recognises a snippet comment, malformed ones included, and nothing else', () => {
    expect(isSnippetComment('<!-- snippet: whatever')).toBe(true);
    expect(isSnippetComment('  <!--snippet -->')).toBe(true);
    expect(isSnippetComment('<!-- a note about snippets -->')).toBe(false);
    expect(isSnippetComment('See `<!-- snippet: runnable NAME -->`.')).toBe(false);
  });
});
