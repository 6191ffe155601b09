import { describe, expect, it } from '@jest/globals';
import { readUIMessageStream, validateUIMessages, type UIMessage, type UIMessageChunk } from 'ai';
import { z } from 'zod';
import type { MemoryMessage } from '../../../../providers/src/memory/memory-message.js';
import { toUiMessages } from './to-ui-messages.js';

const at = '2025-01-01T12:00:00.000Z';

const TURN: MemoryMessage[] = [
  { role: 'user', content: '2+3, then look up x', timestamp: at },
  {
    role: 'assistant',
    content: '5; x is unknown.',
    timestamp: at,
    tools: [
      { id: 'c1', name: 'calculator', args: { expression: '2+3' }, result: 5, step: 1 },
      { id: 'c2', name: 'lookup', args: { q: 'x' }, error: 'unknown tool', step: 2 },
    ],
  },
];

/** The message the AI SDK itself builds from the same answer streamed live. */
async function liveMessage(): Promise<UIMessage> {
  const chunks: UIMessageChunk[] = [
    { type: 'start' },
    { type: 'start-step' },
    {
      type: 'tool-input-available',
      toolCallId: 'c1',
      toolName: 'calculator',
      input: { expression: '2+3' },
    },
    { type: 'tool-output-available', toolCallId: 'c1', output: 5 },
    { type: 'finish-step' },
    { type: 'start-step' },
    { type: 'tool-input-available', toolCallId: 'c2', toolName: 'lookup', input: { q: 'x' } },
    { type: 'tool-output-error', toolCallId: 'c2', errorText: 'unknown tool' },
    { type: 'finish-step' },
    { type: 'start-step' },
    { type: 'text-start', id: 't' },
    { type: 'text-delta', id: 't', delta: '5; x is unknown.' },
    { type: 'text-end', id: 't' },
    { type: 'finish-step' },
    { type: 'finish' },
  ];
  const stream = new ReadableStream<UIMessageChunk>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
  let message: UIMessage | undefined;
  for await (const snapshot of readUIMessageStream({ stream })) message = snapshot;
  if (message === undefined) throw new Error('no message');
  return message;
}

describe('toUiMessages', () => {
  it('gives tool parts per round, then the text, as the AI SDK builds them live', async () => {
    const [user, answer] = toUiMessages(TURN);
    expect(user).toEqual({
      id: `${at}:user`,
      role: 'user',
      parts: [{ type: 'text', text: '2+3, then look up x', state: 'done' }],
    });
    expect(answer.id).toBe(`${at}:assistant`);
    const live = await liveMessage();
    expect(answer.parts).toEqual(live.parts);
  });

  it("passes the ai package's validateUIMessages, tool inputs and outputs checked", async () => {
    const messages = toUiMessages(TURN);
    const validated = await validateUIMessages({
      messages,
      tools: {
        calculator: { inputSchema: z.object({ expression: z.string() }), outputSchema: z.number() },
        lookup: { inputSchema: z.object({ q: z.string() }) },
      },
    });
    expect(validated).toEqual(messages);
  });

  it('keeps metadata, marks unrecorded and unrun calls, and makes repeated ids unique', () => {
    const messages = toUiMessages([
      { role: 'system', content: 'Be brief.', timestamp: at },
      { role: 'user', content: 'a', timestamp: at },
      { role: 'user', content: 'b', timestamp: at },
      {
        role: 'assistant',
        content: '',
        timestamp: at,
        metadata: { interrupted: true },
        tools: [
          { id: 'c1', name: 'clock', args: {} },
          { id: 'c2', name: 'clock', args: {}, error: 'interrupted' },
        ],
      },
    ]);
    expect(messages.map((m) => m.id)).toEqual([
      `${at}:system`,
      `${at}:user`,
      `${at}:user:2`,
      `${at}:assistant`,
    ]);
    expect(messages[3]).toEqual({
      id: `${at}:assistant`,
      role: 'assistant',
      metadata: { interrupted: true },
      parts: [
        { type: 'step-start' },
        { type: 'tool-clock', toolCallId: 'c1', state: 'input-available', input: {} },
        {
          type: 'tool-clock',
          toolCallId: 'c2',
          state: 'output-error',
          input: {},
          errorText: 'interrupted',
        },
      ],
    });
    expect(toUiMessages([])).toEqual([]);
  });
});
