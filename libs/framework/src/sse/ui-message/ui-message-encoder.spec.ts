import { describe, expect, it } from '@jest/globals';
import { UiMessageEncoder } from './ui-message-encoder.js';

function encodeAll(values: unknown[]): unknown[] {
  const encoder = new UiMessageEncoder();
  return [...values.flatMap((value) => encoder.encode(value)), ...encoder.end()];
}

describe('UiMessageEncoder', () => {
  it('closes the text part before a tool call and opens a new step after the results', () => {
    expect(
      encodeAll([
        { type: 'text-delta', data: 'Let me check. ' },
        { type: 'tool-call', data: { id: 'c1', name: 'weather', args: { city: 'Oslo' } } },
        { type: 'tool-result', data: { id: 'c1', name: 'weather', error: 'timed out' } },
        { type: 'text-delta', data: 'No luck.' },
        {
          type: 'finish',
          data: { finishReason: 'max-steps', usage: { totalTokens: 3 }, steps: 2 },
        },
      ]),
    ).toEqual([
      { type: 'start' },
      { type: 'start-step' },
      { type: 'text-start', id: 'text-1' },
      { type: 'text-delta', id: 'text-1', delta: 'Let me check. ' },
      { type: 'text-end', id: 'text-1' },
      {
        type: 'tool-input-available',
        toolCallId: 'c1',
        toolName: 'weather',
        input: { city: 'Oslo' },
      },
      { type: 'tool-output-error', toolCallId: 'c1', errorText: 'timed out' },
      { type: 'finish-step' },
      { type: 'start-step' },
      { type: 'text-start', id: 'text-2' },
      { type: 'text-delta', id: 'text-2', delta: 'No luck.' },
      { type: 'text-end', id: 'text-2' },
      { type: 'finish-step' },
      // `max-steps` is not one of the AI SDK's finish reasons.
      {
        type: 'finish',
        finishReason: 'other',
        messageMetadata: { usage: { totalTokens: 3 }, steps: 2 },
      },
    ]);
  });

  it('passes data parts and protocol chunks through, and keeps a start the handler sent', () => {
    expect(
      encodeAll([
        { type: 'start', messageId: 'm1' },
        { type: 'data-weather', data: { celsius: 21 } },
        { type: 'reasoning-start', id: 'r' },
        { type: 'text-delta', id: 'own', delta: 'x' },
      ]),
    ).toEqual([
      { type: 'start', messageId: 'm1' },
      { type: 'data-weather', data: { celsius: 21 } },
      { type: 'reasoning-start', id: 'r' },
      { type: 'text-delta', id: 'own', delta: 'x' },
      { type: 'finish' },
    ]);
  });

  it('refuses values that are not part of the protocol', () => {
    const encoder = new UiMessageEncoder();
    expect(() => encoder.encode({ answer: 42 })).toThrow(TypeError);
    expect(() => encoder.encode({ type: 'message', data: 'x' })).toThrow(TypeError);
  });

  it('still sends start and finish for a handler that yielded nothing', () => {
    expect(encodeAll([])).toEqual([{ type: 'start' }, { type: 'finish' }]);
  });
});
