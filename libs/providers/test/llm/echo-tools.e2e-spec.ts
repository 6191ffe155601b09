import { describe, expect, it } from '@jest/globals';
import { LLM } from '../../src/llm/llm.js';
import type { LlmStreamEvent } from '../../src/llm/tools/llm-stream-event.js';
import { defineTool } from '../../src/llm/tools/tool.js';

const calculator = defineTool({
  name: 'calculator',
  description: 'Adds two numbers',
  parameters: {
    type: 'object',
    properties: { a: { type: 'number' }, b: { type: 'number' } },
    required: ['a', 'b'],
  } as const,
  execute: ({ a, b }) => ({ sum: a + b }),
});

describe('echo runs the tool loop offline by its /tool rule', () => {
  const llm = new LLM('echo');

  it('calls the named tool with the written arguments, then reports the result', async () => {
    const answer = await llm.generate('/tool calculator {"a": 2, "b": 3}', { tools: [calculator] });
    expect(answer.text).toBe('Tool calculator returned {"sum":5}.');
    expect(answer.finishReason).toBe('stop');
    expect(answer.steps.map((s) => s.toolCalls)).toEqual([
      [{ id: 'echo_call_1', name: 'calculator', args: { a: 2, b: 3 }, result: { sum: 5 } }],
      [],
    ]);
  });

  it('streams the same loop as typed events', async () => {
    const events: LlmStreamEvent[] = [];
    const stream = await llm.streamEvents('/tool calculator {"a": 1, "b": 1}', {
      tools: [calculator],
    });
    for await (const event of stream) events.push(event);
    expect(events.slice(0, 2)).toEqual([
      { type: 'tool-call', data: { id: 'echo_call_1', name: 'calculator', args: { a: 1, b: 1 } } },
      { type: 'tool-result', data: { id: 'echo_call_1', name: 'calculator', result: { sum: 2 } } },
    ]);
    const text = events.map((e) => (e.type === 'text-delta' ? e.data : '')).join('');
    expect(text).toBe('Tool calculator returned {"sum":2}.');
    expect(events.at(-1)).toMatchObject({ type: 'finish', data: { steps: 2 } });
  });

  it('hands each call its own toolContext, streamed or not, and {} without one', async () => {
    const seen: unknown[] = [];
    const whoAmI = defineTool({
      name: 'who_am_i',
      description: 'Says whose conversation this is',
      parameters: { type: 'object', properties: {} } as const,
      execute: (_args, { context }) => {
        seen.push(context);
        return context.conversation ?? 'nobody';
      },
    });
    const ana = await llm.generate('/tool who_am_i', {
      tools: [whoAmI],
      toolContext: { conversation: 'ana' },
    });
    expect(ana.text).toBe('Tool who_am_i returned ana.');
    const events = await llm.streamEvents('/tool who_am_i', {
      tools: [whoAmI],
      toolContext: { conversation: 'bo' },
    });
    for await (const event of events) void event;
    const none = await llm.generate('/tool who_am_i', { tools: [whoAmI] });
    expect(none.text).toBe('Tool who_am_i returned nobody.');
    expect(seen).toEqual([{ conversation: 'ana' }, { conversation: 'bo' }, {}]);
  });

  it('reports bad arguments and unknown tools as failures, and ignores /tool without tools', async () => {
    const bad = await llm.generate('/tool calculator {"a": "x"}', { tools: [calculator] });
    expect(bad.text).toMatch(/^Tool calculator failed: \{"error":"invalid arguments: /);
    const unknown = await llm.generate('/tool weather {}', { tools: [calculator] });
    expect(unknown.text).toMatch(/unknown tool \\"weather\\"/);
    const plain = await llm.generate('/tool calculator {}');
    expect(plain.steps).toHaveLength(1);
    expect(plain.text).toMatch(/^You said: "\/tool calculator \{\}"/);
  });

  it('answers generateObject offline with the simplest valid object, streamed or not', async () => {
    const schema = {
      type: 'object',
      properties: {
        title: { type: 'string', maxLength: 5 },
        stars: { type: 'integer', minimum: 1 },
        mood: { enum: ['happy', 'sad'] },
        tags: { type: 'array', items: { type: 'string' }, minItems: 1 },
      },
      required: ['title', 'stars', 'mood', 'tags'],
    } as const;
    const expected = { title: 'Great', stars: 1, mood: 'happy', tags: ['Great movie'] };
    const { object } = await llm.generateObject('Great movie', { schema });
    expect(object).toEqual(expected);
    const partials: unknown[] = [];
    for await (const p of await llm.streamObject('Great movie', { schema })) partials.push(p);
    expect(partials.at(-1)).toEqual(expected);
  });
});
