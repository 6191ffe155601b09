import { describe, expect, it } from '@jest/globals';
import { InvalidMessageError } from '../../../providers/src/memory/invalid-message.error.js';
import type { LlmStreamEvent } from '../../../providers/src/llm/tools/llm-stream-event.js';
import { recordTurn, type TurnOptions } from './record-turn.js';
import { toolStepsOf } from './tool-step.collector.js';

/** Records what would be committed. */
class Turns {
  readonly committed: [string, string, TurnOptions | undefined][] = [];
  async addTurn(user: string, assistant: string, options?: TurnOptions): Promise<void> {
    this.committed.push([user, assistant, options]);
  }
}

async function* chunks(parts: string[], failAfter?: Error): AsyncGenerator<string> {
  for (const part of parts) yield part;
  if (failAfter) throw failAfter;
}

async function* iterate<T>(items: readonly T[]): AsyncGenerator<T> {
  for (const item of items) yield item;
}

async function drain(stream: AsyncIterable<string>): Promise<string> {
  let text = '';
  for await (const chunk of stream) text += chunk;
  return text;
}

describe('recordTurn', () => {
  it('commits the user message and the whole answer once the stream ends', async () => {
    const turns = new Turns();
    expect(await drain(recordTurn(turns, 'Hi', chunks(['Hel', 'lo'])))).toBe('Hello');
    expect(turns.committed).toEqual([['Hi', 'Hello', undefined]]);
  });

  it('passes typed events through, storing their text and their tool steps by round', async () => {
    const turns = new Turns();
    const events: LlmStreamEvent[] = [
      { type: 'text-delta', data: 'Let me see. ' },
      { type: 'tool-call', data: { id: 'c1', name: 'calculator', args: { expression: '6*7' } } },
      { type: 'tool-call', data: { id: 'c2', name: 'lookup', args: 'not json' } },
      { type: 'tool-result', data: { id: 'c2', name: 'lookup', error: 'unknown tool' } },
      { type: 'tool-result', data: { id: 'c1', name: 'calculator', result: 42 } },
      { type: 'tool-call', data: { id: 'c3', name: 'clock', args: {} } },
      { type: 'tool-result', data: { id: 'c3', name: 'clock', result: { at: new Date(0) } } },
      { type: 'text-delta', data: 'It is ' },
      { type: 'text-delta', data: '42.' },
      { type: 'finish', data: { finishReason: 'stop', steps: 3 } },
    ];
    const seen: LlmStreamEvent[] = [];
    for await (const event of recordTurn(turns, 'What is 6*7?', iterate(events))) seen.push(event);
    expect(seen).toEqual(events);
    expect(turns.committed).toEqual([
      [
        'What is 6*7?',
        'Let me see. It is 42.',
        {
          tools: [
            { id: 'c1', name: 'calculator', args: { expression: '6*7' }, result: 42, step: 1 },
            { id: 'c2', name: 'lookup', args: 'not json', error: 'unknown tool', step: 1 },
            {
              id: 'c3',
              name: 'clock',
              args: {},
              result: { at: '1970-01-01T00:00:00.000Z' },
              step: 2,
            },
          ],
        },
      ],
    ]);
  });

  it('stores calls the loop never ran (maxSteps) as "not run", unstorable characters as U+FFFD', async () => {
    const turns = new Turns();
    const events: LlmStreamEvent[] = [
      { type: 'tool-call', data: { id: 'c1', name: 'search', args: { q: 'a\u0000\uD800😀' } } },
      { type: 'finish', data: { finishReason: 'max-steps', steps: 1 } },
    ];
    for await (const event of recordTurn(turns, 'Search', iterate(events))) void event;
    expect(turns.committed).toEqual([
      [
        'Search',
        '',
        {
          tools: [
            { id: 'c1', name: 'search', args: { q: 'a\uFFFD\uFFFD😀' }, error: 'not run', step: 1 },
          ],
        },
      ],
    ]);
  });

  it('keeps the completed steps of a stopped answer, the unanswered call marked interrupted', async () => {
    const turns = new Turns();
    const controller = new AbortController();
    const events: LlmStreamEvent[] = [
      { type: 'tool-call', data: { id: 'c1', name: 'calculator', args: { expression: '1+1' } } },
      { type: 'tool-result', data: { id: 'c1', name: 'calculator', result: 2 } },
      { type: 'tool-call', data: { id: 'c2', name: 'calculator', args: { expression: '2+2' } } },
      { type: 'text-delta', data: 'never seen' },
    ];
    for await (const event of recordTurn(turns, 'Sums', iterate(events), controller.signal)) {
      if (event.type === 'tool-call' && event.data.id === 'c2') {
        controller.abort();
        break;
      }
    }
    expect(turns.committed).toEqual([
      [
        'Sums',
        '',
        {
          interrupted: true,
          tools: [
            { id: 'c1', name: 'calculator', args: { expression: '1+1' }, result: 2, step: 1 },
            {
              id: 'c2',
              name: 'calculator',
              args: { expression: '2+2' },
              error: 'interrupted',
              step: 2,
            },
          ],
        },
      ],
    ]);
  });

  it('keeps an event stream stopped after tool steps but before any text out of memory', async () => {
    const turns = new Turns();
    const controller = new AbortController();
    const events: LlmStreamEvent[] = [
      { type: 'tool-call', data: { id: 'c1', name: 'current_time', args: {} } },
    ];
    for await (const event of recordTurn(turns, 'Time?', iterate(events), controller.signal)) {
      void event;
      controller.abort();
      break;
    }
    expect(turns.committed).toEqual([]);
  });

  it('refuses a message memory cannot store at once, before reading the stream', () => {
    const turns = new Turns();
    let read = false;
    const stream = (async function* () {
      read = true;
      yield 'never';
    })();
    expect(() => recordTurn(turns, 'a\u0000b', stream)).toThrow(InvalidMessageError);
    expect(() => recordTurn(turns, 42 as unknown as string, stream)).toThrow(
      'content must be a string',
    );
    expect(read).toBe(false);
    expect(turns.committed).toEqual([]);
  });

  it('stores NUL characters of the answer as U+FFFD (the client saw the answer as sent)', async () => {
    const turns = new Turns();
    expect(await drain(recordTurn(turns, 'Hi', chunks(['a\u0000', 'b'])))).toBe('a\u0000b');
    expect(turns.committed).toEqual([['Hi', 'a\uFFFDb', undefined]]);
  });

  it('commits nothing when the model fails mid-answer, and passes the failure on', async () => {
    const turns = new Turns();
    const upstream = new Error('upstream 500');
    await expect(drain(recordTurn(turns, 'Hi', chunks(['Hel'], upstream)))).rejects.toBe(upstream);
    expect(turns.committed).toEqual([]);
  });

  it('commits the partial answer, marked interrupted, when the reader stops', async () => {
    const turns = new Turns();
    const stream = recordTurn(turns, 'Hi', chunks(['Hel', 'lo', ' there']));
    expect(await stream.next()).toEqual({ value: 'Hel', done: false });
    expect(await stream.next()).toEqual({ value: 'lo', done: false });
    await stream.return();
    expect(turns.committed).toEqual([['Hi', 'Hello', { interrupted: true }]]);
  });

  it('treats a failure caused by the aborted signal as a stop', async () => {
    const turns = new Turns();
    const controller = new AbortController();
    const stream = recordTurn(
      turns,
      'Hi',
      chunks(['Hel'], new Error('aborted')),
      controller.signal,
    );
    expect(await stream.next()).toEqual({ value: 'Hel', done: false });
    controller.abort();
    await expect(stream.next()).rejects.toThrow('aborted');
    expect(turns.committed).toEqual([['Hi', 'Hel', { interrupted: true }]]);
  });

  it('refuses a message memory would refuse with a 422, before reading the stream', () => {
    const turns = new Turns();
    let read = false;
    const stream = (async function* () {
      read = true;
      yield 'never';
    })();
    expect(() => recordTurn(turns, 'a\u0000b', stream)).toThrow(
      expect.objectContaining({ statusCode: 422 }),
    );
    expect(read).toBe(false);
  });

  it('commits nothing when the reader stops before the first chunk', async () => {
    const turns = new Turns();
    const controller = new AbortController();
    controller.abort();
    await expect(
      drain(recordTurn(turns, 'Hi', chunks([], new Error('aborted')), controller.signal)),
    ).rejects.toThrow('aborted');
    expect(turns.committed).toEqual([]);
  });
});

describe('toolStepsOf', () => {
  it('gives the steps of a generate() answer by model call, values as their JSON form', () => {
    const usage = undefined;
    expect(
      toolStepsOf([
        {
          text: '',
          finishReason: 'tool-calls',
          usage,
          toolCalls: [
            { id: 'a', name: 'clock', args: {}, result: { at: new Date(0) } },
            { id: 'b', name: 'calc', args: '1/0', error: 'division by zero' },
          ],
        },
        {
          text: '',
          finishReason: 'max-steps',
          usage,
          toolCalls: [{ id: 'c', name: 'calc', args: {}, error: 'not run: maxSteps (2) reached' }],
        },
        { text: 'done', finishReason: 'stop', usage, toolCalls: [] },
      ]),
    ).toEqual([
      { id: 'a', name: 'clock', args: {}, result: { at: '1970-01-01T00:00:00.000Z' }, step: 1 },
      { id: 'b', name: 'calc', args: '1/0', error: 'division by zero', step: 1 },
      { id: 'c', name: 'calc', args: {}, error: 'not run: maxSteps (2) reached', step: 2 },
    ]);
    expect(toolStepsOf([{ text: 'hi', finishReason: 'stop', toolCalls: [] }])).toEqual([]);
  });
});
