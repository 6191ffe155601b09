import { describe, expect, it } from '@jest/globals';
import { ValidationError } from '../../../../providers/src/errors/validation.error.js';
import { readUiChatRequest } from './ui-message-request.js';

const text = (role: string, value: string) => ({
  id: value,
  role,
  parts: [{ type: 'text', text: value }],
});

function problemsOf(body: unknown, maxMessages?: number): string[] {
  try {
    readUiChatRequest(body, { maxMessages });
  } catch (error) {
    if (error instanceof ValidationError) return error.details.map((d) => d.param);
    throw error;
  }
  return [];
}

describe('readUiChatRequest', () => {
  it('reads the last user message and the history, skipping non-text parts', () => {
    expect(
      readUiChatRequest({
        id: 'chat-1',
        trigger: 'regenerate-message',
        messageId: 'm2',
        messages: [
          text('user', 'Hi'),
          {
            id: 'a',
            role: 'assistant',
            parts: [
              { type: 'step-start' },
              { type: 'tool-weather', toolCallId: 'c', state: 'output-available' },
              { type: 'text', text: 'Hello' },
              { type: 'data-weather', data: {} },
            ],
          },
          text('user', 'Again'),
        ],
      }),
    ).toEqual({
      id: 'chat-1',
      trigger: 'regenerate-message',
      messageId: 'm2',
      message: 'Again',
      history: [
        { role: 'user', content: 'Hi' },
        { role: 'assistant', content: 'Hello' },
      ],
    });
  });

  it('names each bad field, and bounds the number of messages', () => {
    expect(problemsOf('nope')).toEqual(['body']);
    expect(problemsOf({ id: 'c', messages: [] })).toEqual(['messages']);
    expect(problemsOf({ id: 'c', trigger: 'x', messages: [text('user', 'a')] })).toEqual([
      'trigger',
    ]);
    expect(
      problemsOf({ id: 'c', messages: [{ role: 'user', parts: [{ type: 'text' }] }] }),
    ).toEqual(['messages[0].parts[0].text']);
    expect(problemsOf({ id: 'c', messages: [text('user', 'a'), text('assistant', 'b')] })).toEqual([
      'messages[1].role',
    ]);
    const many = Array.from({ length: 3 }, () => text('user', 'a'));
    expect(problemsOf({ id: 'c', messages: many }, 2)).toEqual(['messages']);
    expect(problemsOf({ id: 'c', messages: many }, 3)).toEqual([]);
  });
});
