import { describe, expect, it } from '@jest/globals';
import { ValidationError } from '../errors/validation.error.js';
import { buildConversation } from './conversation.js';

describe('buildConversation', () => {
  it('puts history first, then the message; system entries join the system option', () => {
    expect(
      buildConversation('now', {
        system: 'Be kind.',
        history: [
          { role: 'system', content: 'Speak French.' },
          { role: 'user', content: 'a' },
          { role: 'assistant', content: 'b' },
        ],
      }),
    ).toEqual({
      system: 'Be kind.\n\nSpeak French.',
      messages: [
        { role: 'user', content: 'a' },
        { role: 'assistant', content: 'b' },
        { role: 'user', content: 'now' },
      ],
    });
  });

  it('accepts a whole conversation as the input', () => {
    expect(buildConversation([{ role: 'user', content: 'hi' }], {})).toEqual({
      messages: [{ role: 'user', content: 'hi' }],
    });
  });

  it('rejects bad elements with a 422 naming each one', () => {
    let error: unknown;
    try {
      buildConversation('x', {
        history: [
          { role: 'bot', content: 'a' },
          { role: 'user', content: 3 } as never,
          null as never,
        ],
      });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).statusCode).toBe(422);
    expect((error as ValidationError).details).toEqual([
      { param: 'history[0].role', problem: 'must be "user", "assistant" or "system"' },
      { param: 'history[1].content', problem: 'must be a string' },
      { param: 'history[2]', problem: 'must be an object with role and content' },
    ]);
  });

  it('rejects a non-string message, a non-array history and an empty conversation', () => {
    expect(() => buildConversation(42 as never, {})).toThrow(/message must be a string/);
    expect(() => buildConversation('x', { history: 'nope' as never })).toThrow(
      /history must be an array/,
    );
    expect(() => buildConversation([{ role: 'system', content: 's' }], {})).toThrow(
      /messages must contain a user or assistant message/,
    );
  });
});
