import { describe, expect, it } from '@jest/globals';
import { AccessLogRecord } from './access-log-record.js';

const base = {
  requestId: 'r1',
  method: 'POST',
  route: '/chats/:id',
  status: 200,
  durationMs: 12,
  bytes: 345,
};

describe('AccessLogRecord', () => {
  it('reads as one text line', () => {
    expect(String(new AccessLogRecord(base))).toBe('POST /chats/:id 200 12ms 345B');
  });

  it('adds the stream, LLM and abort fields it has', () => {
    const record = new AccessLogRecord({
      ...base,
      firstByteMs: 80,
      aborted: true,
      model: 'gpt-4o-mini',
      provider: 'openai',
      inputTokens: 52,
      outputTokens: 120,
      costUsd: 0.00008,
      timeToFirstTokenMs: 74,
    });
    expect(String(record)).toBe(
      'POST /chats/:id 200 12ms 345B aborted first-event=80ms model=gpt-4o-mini tokens=52+120 cost=$0.000080 first-token=74ms',
    );
  });

  it('names a request no route matched without its path', () => {
    expect(String(new AccessLogRecord({ ...base, route: null, status: 404 }))).toBe(
      'POST (no route) 404 12ms 345B',
    );
  });

  it('serialises as its fields and text', () => {
    expect(JSON.parse(JSON.stringify(new AccessLogRecord(base)))).toEqual({
      message: 'POST /chats/:id 200 12ms 345B',
      ...base,
    });
  });
});
