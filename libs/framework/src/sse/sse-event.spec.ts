import { describe, expect, it } from '@jest/globals';
import { endFrame, formatEvent, isMessageEvent, SseFramer } from './sse-event.js';

describe('SseFramer', () => {
  it('frames strings as event: message with one data line per line, and no id', () => {
    const framer = new SseFramer();
    expect(framer.frame('a')).toBe('event: message\ndata: a\n\n');
    expect(framer.frame('b\r\nc')).toBe('event: message\ndata: b\ndata: c\n\n');
    expect(framer.frame(Buffer.from('bytes'))).toBe('event: message\ndata: bytes\n\n');
  });

  it('frames MessageEvents as Nest does (type, an id counted from 1 when missing, retry, JSON data), the id line last', () => {
    const framer = new SseFramer();
    expect(framer.frame({ data: 'x' })).toBe('event: message\ndata: x\nid: 1\n\n');
    expect(framer.frame({ data: { n: 1 }, type: 'update' })).toBe(
      'event: update\ndata: {"n":1}\nid: 2\n\n',
    );
    // An explicit id is kept and does not move the counter.
    expect(framer.frame({ data: 'y', id: 'custom-7', retry: 3000 })).toBe(
      'event: message\nretry: 3000\ndata: y\nid: custom-7\n\n',
    );
    expect(framer.frame({ data: 'z' })).toBe('event: message\ndata: z\nid: 3\n\n');
  });

  it('drops line breaks from fields, writes comments, and gives a comment-only event no id', () => {
    const framer = new SseFramer();
    expect(framer.frame({ data: 'd', type: 'evil\nevent: other', id: '1\r2' })).toBe(
      'event: evilevent: other\ndata: d\nid: 12\n\n',
    );
    expect(framer.frame({ comment: 'keep\nalive' })).toBe(': keep\n: alive\n\n');
    expect(framer.frame({ data: 'after' })).toBe('event: message\ndata: after\nid: 1\n\n');
  });

  it('splits a line break anywhere in the data, at either end or alone, and leaves none unsplit', () => {
    const cases: [string, string][] = [
      ['', 'event: message\ndata: \n\n'],
      ['\n', 'event: message\ndata: \ndata: \n\n'],
      ['\r', 'event: message\ndata: \ndata: \n\n'],
      ['end\n', 'event: message\ndata: end\ndata: \n\n'],
      ['\nstart', 'event: message\ndata: \ndata: start\n\n'],
      ['a\rb', 'event: message\ndata: a\ndata: b\n\n'],
      ['a\n\nb', 'event: message\ndata: a\ndata: \ndata: b\n\n'],
    ];
    for (const [data, frame] of cases) expect([data, formatEvent(data)]).toEqual([data, frame]);
    // A string built from parts, as a producer's template makes it, frames the same.
    const parts = `${'x'.repeat(12)}${String(7).padStart(3, '0')}\n-tail`;
    expect(formatEvent(parts)).toBe(`event: message\ndata: ${'x'.repeat(12)}007\ndata: -tail\n\n`);
    expect(formatEvent('a\nb', 'update')).toBe('event: update\ndata: a\ndata: b\n\n');
    expect(formatEvent('one', 'update')).toBe('event: update\ndata: one\n\n');
    expect(() => formatEvent('x', 'bad\nname')).toThrow(TypeError);
  });

  it('sends other values as JSON', () => {
    const framer = new SseFramer();
    expect(framer.frame({ items: [1, 2] })).toBe('event: message\ndata: {"items":[1,2]}\n\n');
    expect(framer.frame(42)).toBe('event: message\ndata: 42\n\n');
  });
});

describe('isMessageEvent', () => {
  it('is true only for plain objects made of MessageEvent fields with data or comment', () => {
    expect(isMessageEvent({ data: [1] })).toBe(true);
    expect(isMessageEvent({ comment: 'c' })).toBe(true);
    expect(isMessageEvent({ type: 'only-type' })).toBe(false);
    expect(isMessageEvent({ data: 1, extra: true })).toBe(false);
    expect(
      isMessageEvent(
        new (class {
          data = 'x';
        })(),
      ),
    ).toBe(false);
    expect(isMessageEvent([{ data: 'x' }])).toBe(false);
  });
});

describe('endFrame', () => {
  it('is an id and nothing else', () => {
    expect(endFrame(3)).toBe('id: toolkit-end.3\n\n');
    expect(endFrame(0)).toBe('id: toolkit-end.0\n\n');
  });
});
