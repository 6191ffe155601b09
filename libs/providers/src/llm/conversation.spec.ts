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
  it("replays an assistant message's tool steps round by round, then its text", () => {
    const { messages } = buildConversation('next', {
      history: [
        { role: 'user', content: 'q' },
        {
          role: 'assistant',
          content: 'done',
          tools: [
            { id: 'a', name: 'calc', args: { x: 1 }, result: { y: 2 }, step: 1 },
            { id: 'b', name: 'raw', args: 'not json', error: 'bad JSON', step: 1 },
            { id: 'c', name: 'calc', args: {}, step: 2 },
          ],
        },
        { role: 'user', content: 'stopped?' },
        {
          role: 'assistant',
          content: '',
          tools: [{ id: 'd', name: 'calc', args: {}, result: 'ok' }],
        },
      ],
    });
    expect(messages).toEqual([
      { role: 'user', content: 'q' },
      {
        role: 'assistant',
        content: '',
        toolCalls: [
          { id: 'a', name: 'calc', arguments: '{"x":1}' },
          { id: 'b', name: 'raw', arguments: 'not json' },
        ],
      },
      { role: 'tool', toolCallId: 'a', name: 'calc', content: '{"y":2}' },
      {
        role: 'tool',
        toolCallId: 'b',
        name: 'raw',
        content: '{"error":"bad JSON"}',
        isError: true,
      },
      { role: 'assistant', content: '', toolCalls: [{ id: 'c', name: 'calc', arguments: '{}' }] },
      {
        role: 'tool',
        toolCallId: 'c',
        name: 'calc',
        content: '{"error":"no result recorded"}',
        isError: true,
      },
      { role: 'assistant', content: 'done' },
      { role: 'user', content: 'stopped?' },
      { role: 'assistant', content: '', toolCalls: [{ id: 'd', name: 'calc', arguments: '{}' }] },
      { role: 'tool', toolCallId: 'd', name: 'calc', content: 'ok' },
      { role: 'user', content: 'next' },
    ]);
  });

  it('treats an empty tools list as none and refuses bad tool steps naming each path', () => {
    expect(
      buildConversation('x', { history: [{ role: 'assistant', content: 'a', tools: [] }] }),
    ).toEqual({
      messages: [
        { role: 'assistant', content: 'a' },
        { role: 'user', content: 'x' },
      ],
    });
    let error: unknown;
    try {
      buildConversation('x', {
        history: [
          { role: 'user', content: 'q', tools: [] },
          { role: 'assistant', content: 'a', tools: 'nope' as never },
          {
            role: 'assistant',
            content: 'a',
            tools: [{ id: 'c', name: 'n', args: {}, result: NaN }],
          },
          { role: 'assistant', content: 'a', tools: [{ id: 7, name: 'n', args: {} } as never] },
        ],
      });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).details).toEqual([
      { param: 'history[0].tools', problem: 'is only allowed on assistant messages' },
      { param: 'history[1].tools', problem: 'must be an array of tool steps' },
      { param: 'history[2].tools[0].result', problem: 'must be a finite number' },
      {
        param: 'history[3].tools[0].id',
        problem: 'must be a non-empty string of at most 256 characters',
      },
    ]);
  });
});
