import { describe, expect, it } from '@jest/globals';
import { SseParser, parseSse } from './sse-parser.js';
import { formatEvent } from '../../framework/src/sse/sse-event.js';

const BODY =
  ': ping\n\n' +
  formatEvent('a') +
  formatEvent('b\nc') +
  formatEvent('{"error":"x"}', 'error') +
  'id: 7\r\nevent: custom\r\ndata: crlf line\r\ndata:no space\r\n\r\n' +
  'data: héllo wörld ✓\n\n';

describe('SseParser', () => {
  it('parses events, multi-line data, CRLF, ids and comments', () => {
    expect(parseSse(BODY)).toEqual([
      { event: 'message', data: 'a' },
      { event: 'message', data: 'b\nc' },
      { event: 'error', data: '{"error":"x"}' },
      { event: 'custom', data: 'crlf line\nno space', id: '7' },
      { event: 'message', data: 'héllo wörld ✓', id: '7' },
    ]);
  });

  it('gives identical events whether the body comes in one chunk or one byte at a time', () => {
    const bytes = Buffer.from(BODY, 'utf8');
    const whole = parseSse(bytes);
    const parser = new SseParser();
    const byByte = [];
    for (const byte of bytes) byByte.push(...parser.feed(Uint8Array.of(byte)));
    byByte.push(...parser.end());
    expect(byByte).toEqual(whole);
    expect(whole).toHaveLength(5);
  });

  it('flushes a last event that lacks the closing blank line', () => {
    const parser = new SseParser();
    expect(parser.feed('data: tail')).toEqual([]);
    expect(parser.end()).toEqual([{ event: 'message', data: 'tail' }]);
  });
});

describe('formatEvent', () => {
  it('splits CR, LF and CRLF into data lines and refuses newlines in event names', () => {
    expect(formatEvent('x\r\ny\rz')).toBe('event: message\ndata: x\ndata: y\ndata: z\n\n');
    expect(() => formatEvent('x', 'bad\nname')).toThrow(/CR or LF/);
  });
});
