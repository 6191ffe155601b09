import { describe, expect, it } from '@jest/globals';
import type { IncomingMessage } from 'node:http';
import { BadRequestError } from '../http/http.errors.js';
import { reconnectsAfterEnd, resumesStream, streamPosition } from './stream-position.js';

const STREAM_ID = 'AAAAAAAAAAAAAAAAAAAAAA';

/** A request with `Last-Event-ID: header` (when given) for `url`. */
function request(header: string | undefined, url = '/chat'): IncomingMessage {
  const headers = header === undefined ? {} : { 'last-event-id': header };
  return { headers, url } as unknown as IncomingMessage;
}

describe('reconnectsAfterEnd', () => {
  it('recognises the id that closes a plain stream, in the header or the query', () => {
    expect(reconnectsAfterEnd(request('toolkit-end.3'))).toBe(true);
    expect(reconnectsAfterEnd(request('toolkit-end.0'))).toBe(true);
    expect(reconnectsAfterEnd(request('toolkit-end'))).toBe(true);
    expect(reconnectsAfterEnd(request(undefined, '/chat?lastEventId=toolkit-end.12'))).toBe(true);
    expect(reconnectsAfterEnd(request('', '/chat?a=1&lastEventId=toolkit-end.12'))).toBe(true);
  });

  it('takes nothing else for it: no id, an id of a resumable stream, a look-alike', () => {
    expect(reconnectsAfterEnd(request(undefined))).toBe(false);
    expect(reconnectsAfterEnd(request(''))).toBe(false);
    expect(reconnectsAfterEnd(request(`${STREAM_ID}.4`))).toBe(false);
    expect(reconnectsAfterEnd(request(STREAM_ID))).toBe(false);
    expect(reconnectsAfterEnd(request('7'))).toBe(false);
    expect(reconnectsAfterEnd(request('toolkit-endx'))).toBe(false);
    expect(reconnectsAfterEnd(request('toolkit-end.3 '))).toBe(false);
    expect(reconnectsAfterEnd(request('x toolkit-end.3'))).toBe(false);
    expect(reconnectsAfterEnd(request(`toolkit-end.${'9'.repeat(65)}`))).toBe(false);
    expect(reconnectsAfterEnd(request(undefined, '/chat?other=toolkit-end.1'))).toBe(false);
  });

  it('prefers the header to the query, as positions do', () => {
    expect(reconnectsAfterEnd(request(`${STREAM_ID}.1`, '/c?lastEventId=toolkit-end.1'))).toBe(
      false,
    );
    expect(reconnectsAfterEnd(request('toolkit-end.1', `/c?lastEventId=${STREAM_ID}.1`))).toBe(
      true,
    );
  });
});

describe('streamPosition', () => {
  it('reads the positions of a resumable stream, as before', () => {
    expect(streamPosition(request(`${STREAM_ID}.4`))).toEqual({ id: STREAM_ID, after: 4 });
    expect(streamPosition(request(STREAM_ID))).toEqual({ id: STREAM_ID, after: 0 });
    expect(streamPosition(request(undefined, `/c?lastEventId=${STREAM_ID}.2`))).toEqual({
      id: STREAM_ID,
      after: 2,
    });
    expect(streamPosition(request(undefined))).toBeUndefined();
  });

  it('refuses what is no position (400); the end marker is answered before it is asked', () => {
    expect(() => streamPosition(request('7'))).toThrow(BadRequestError);
    expect(() => streamPosition(request('toolkit-end.3'))).toThrow(BadRequestError);
    expect(resumesStream(request('toolkit-end.3'))).toBe(true);
  });
});
