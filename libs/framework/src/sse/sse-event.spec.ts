import { describe, expect, it } from '@jest/globals';
import { isMessageEvent, SseFramer } from './sse-event.js';

describe('SseFramer', () => {
  it('frames strings as event: message with one data line per line, and no id', () => {
    const framer = new SseFramer();
    expect(framer.frame('a')).toBe('event: message\ndata: a\n\n');
    expect(framer.frame('b\r\nc')).toBe('event: message\ndata: b\ndata: c\n\n');
    expect(framer.frame(Buffer.from('bytes'))).toBe('event: message\ndata: bytes\n\n');
  });

  it('frames MessageEvents as Nest does: type, an id counted from 1 when missing, retry, JSON data', () => {
    const framer = new SseFramer();
    expect(framer.frame({ data: 'x' })).toBe('event: message\nid: 1\ndata: x\n\n');
    expect(framer.frame({ data: { n: 1 }, type: 'update' })).toBe(
      'event: update\nid: 2\ndata: {"n":1}\n\n',
    );
    // An explicit id is kept and does not move the counter.
    expect(framer.frame({ data: 'y', id: 'custom-7', retry: 3000 })).toBe(
      'event: message\nid: custom-7\nretry: 3000\ndata: y\n\n',
    );
    expect(framer.frame({ data: 'z' })).toBe('event: message\nid: 3\ndata: z\n\n');
  });

  it('drops line breaks from fields, writes comments, and gives a comment-only event no id', () => {
    const framer = new SseFramer();
    expect(framer.frame({ data: 'd', type: 'evil\nevent: other', id: '1\r2' })).toBe(
      'event: evilevent: other\nid: 12\ndata: d\n\n',
    );
    expect(framer.frame({ comment: 'keep\nalive' })).toBe(': keep\n: alive\n\n');
    expect(framer.frame({ data: 'after' })).toBe('event: message\nid: 1\ndata: after\n\n');
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
