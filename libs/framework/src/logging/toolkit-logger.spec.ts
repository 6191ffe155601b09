import { describe, expect, it } from '@jest/globals';
import { AccessLogRecord } from './access-log-record.js';
import { runInRequest } from './request-context.js';
import { ToolkitLogger } from './toolkit-logger.js';

/** Shows the lines the logger would write (its protected formatting steps). */
class Inspected extends ToolkitLogger {
  jsonOf(message: unknown): Record<string, unknown> {
    return this.getJsonLogObject(message, { context: 'Test', logLevel: 'log' });
  }
  contextOf(context: string): string {
    return this.formatContext(context);
  }
  textOf(message: unknown): string {
    return this.stringifyMessage(message, 'log');
  }
}

const record = new AccessLogRecord({
  requestId: 'r-7',
  method: 'GET',
  route: '/items/:id',
  status: 200,
  durationMs: 3,
  bytes: 12,
});

describe('ToolkitLogger', () => {
  const logger = new Inspected({ json: true });
  const text = new Inspected({ colors: false });

  it('adds the request id to a JSON line written during a request, and only then', () => {
    expect(logger.jsonOf('hi')).not.toHaveProperty('requestId');
    const line = runInRequest({ id: 'r-7' }, () => logger.jsonOf('hi'));
    expect(line).toMatchObject({ level: 'log', context: 'Test', message: 'hi', requestId: 'r-7' });
  });

  it('writes an access record as fields of the JSON line, its text as the message', () => {
    expect(runInRequest({ id: 'r-7' }, () => logger.jsonOf(record))).toEqual({
      level: 'log',
      pid: process.pid,
      timestamp: expect.any(Number),
      context: 'Test',
      message: 'GET /items/:id 200 3ms 12B',
      requestId: 'r-7',
      method: 'GET',
      route: '/items/:id',
      status: 200,
      durationMs: 3,
      bytes: 12,
    });
  });

  it('puts [<id>] after the context of a text line written during a request', () => {
    expect(text.contextOf('Chat')).toBe('[Chat] ');
    expect(runInRequest({ id: 'r-7' }, () => text.contextOf('Chat'))).toBe('[Chat] [r-7] ');
    expect(runInRequest({ id: 'r-7' }, () => text.contextOf(''))).toBe('[r-7] ');
  });

  it('writes an access record as its text line', () => {
    expect(text.textOf(record)).toBe('GET /items/:id 200 3ms 12B');
    expect(text.textOf('plain')).toBe('plain');
  });
});
