import { expect } from '@jest/globals';
import { jsonOf, type HttpAnswer } from './http-client.js';

/**
 * The invariants every answer of a hardened app keeps: never a 5xx, and every error is a JSON
 * `{ "error": string, ... }`. `context` names the request in the failure message.
 */
export function expectWellFormed(answer: HttpAnswer, context: string): void {
  const where = `${context} → ${answer.status} ${answer.body.slice(0, 300)}`;
  expect({ where, serverError: answer.status >= 500 }).toEqual({ where, serverError: false });
  if (answer.status >= 400) {
    expect({ where, type: answer.headers['content-type'] }).toEqual({
      where,
      type: expect.stringMatching(/^application\/json/),
    });
    const body = jsonOf(answer) as { error?: unknown } | undefined;
    expect({ where, error: typeof body?.error }).toEqual({ where, error: 'string' });
  }
  if (answer.status === 200 && /^text\/event-stream/.test(answer.headers['content-type'] ?? '')) {
    // A failure after the stream began would show as an error event.
    expect({ where, errorEvent: /^event: error$/m.test(answer.body) }).toEqual({
      where,
      errorEvent: false,
    });
  }
}
