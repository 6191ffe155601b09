import { describe, expect, it } from '@jest/globals';
import { toolError, toolResult } from './mcp-tool-result.js';

describe('toolResult', () => {
  it('sends a string as it is, with no structured content', () => {
    expect(toolResult('hello', 100)).toEqual({ content: [{ type: 'text', text: 'hello' }] });
  });

  it('sends an object as JSON text and as structured content', () => {
    expect(toolResult({ sum: 4 }, 100)).toEqual({
      content: [{ type: 'text', text: '{"sum":4}' }],
      structuredContent: { sum: 4 },
    });
  });

  it('sends arrays, numbers, dates and undefined as JSON text only', () => {
    expect(toolResult([1, 2], 100)).toEqual({ content: [{ type: 'text', text: '[1,2]' }] });
    expect(toolResult(7, 100)).toEqual({ content: [{ type: 'text', text: '7' }] });
    expect(toolResult(new Date(0), 100)).toEqual({
      content: [{ type: 'text', text: '"1970-01-01T00:00:00.000Z"' }],
    });
    expect(toolResult(undefined, 100)).toEqual({ content: [{ type: 'text', text: 'null' }] });
  });

  it('refuses a result over the limit, saying how large it was', () => {
    expect(toolResult('é'.repeat(6), 10)).toEqual({
      content: [{ type: 'text', text: "The result is 12 bytes, over the server's limit of 10" }],
      isError: true,
    });
    expect(toolResult('é'.repeat(5), 10).isError).toBeUndefined();
  });
});

describe('toolError', () => {
  it('is an isError result carrying the message', () => {
    expect(toolError('no luck')).toEqual({
      content: [{ type: 'text', text: 'no luck' }],
      isError: true,
    });
  });
});
