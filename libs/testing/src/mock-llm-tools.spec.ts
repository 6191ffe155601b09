import { describe, expect, it } from '@jest/globals';
import { StructuredOutputError } from '../../providers/src/llm/structured/structured-output.error.js';
import type { LlmStreamEvent } from '../../providers/src/llm/tools/llm-stream-event.js';
import { defineTool } from '../../providers/src/llm/tools/tool.js';
import { MockLLM } from './mock-llm.js';

const add = defineTool({
  name: 'add',
  description: 'Adds',
  parameters: {
    type: 'object',
    properties: { a: { type: 'number' }, b: { type: 'number' } },
    required: ['a', 'b'],
  } as const,
  execute: ({ a, b }) => a + b,
});

describe('MockLLM scripts tool calls and structured replies', () => {
  it('runs scripted tool calls through the tool loop and records them', async () => {
    const llm = new MockLLM({
      responses: [
        {
          toolCalls: [
            { name: 'add', args: { a: 1, b: 2 } },
            { name: 'add', args: { a: 'x' } },
          ],
        },
        'Three.',
      ],
    });
    const result = await llm.generate('1+2?', { tools: [add] });
    expect(result.text).toBe('Three.');
    expect(result.steps).toHaveLength(2);
    expect(llm.calls).toEqual([
      ['generate', '1+2?', { tools: [add] }],
      ['tool', { id: 'mock_call_1', name: 'add', args: { a: 1, b: 2 }, result: 3 }],
      [
        'tool',
        {
          id: 'mock_call_2',
          name: 'add',
          args: { a: 'x' },
          error: expect.stringMatching(/^invalid arguments: .*\/a: must be number/) as unknown,
        },
      ],
    ]);
  });

  it('chat with tools answers the final text; streamEvents yields the typed events', async () => {
    const llm = new MockLLM();
    llm.queueResponses({ toolCalls: [{ id: 'c', name: 'add', args: { a: 2, b: 2 } }] }, 'Four.');
    expect(await llm.chat('2+2?', { tools: [add] })).toBe('Four.');
    llm.queueResponses({ toolCalls: [{ id: 'c', name: 'add', args: { a: 2, b: 2 } }] }, 'Ok');
    const seen: LlmStreamEvent[] = [];
    for await (const e of await llm.streamEvents('2+2?', { tools: [add] })) seen.push(e);
    expect(seen).toEqual([
      { type: 'tool-call', data: { id: 'c', name: 'add', args: { a: 2, b: 2 } } },
      { type: 'tool-result', data: { id: 'c', name: 'add', result: 4 } },
      { type: 'text-delta', data: 'O' },
      { type: 'text-delta', data: 'k' },
      { type: 'finish', data: { finishReason: 'stop', steps: 2 } },
    ]);
  });

  it('stops a scripted loop at maxSteps', async () => {
    const again = { toolCalls: [{ name: 'add', args: { a: 1, b: 1 } }] };
    const llm = new MockLLM({ responses: [again, again, again] });
    const result = await llm.generate('loop', { tools: [add], maxSteps: 2 });
    expect(result.finishReason).toBe('max-steps');
  });

  it('validates scripted structured replies against the schema', async () => {
    const schema = {
      type: 'object',
      properties: { city: { type: 'string' } },
      required: ['city'],
    } as const;
    const llm = new MockLLM({ responses: [{ object: { city: 'Oslo' } }, '{"city": 1}'] });
    const { object } = await llm.generateObject('x', { schema });
    expect(object.city).toBe('Oslo');
    await expect(llm.generateObject('y', { schema })).rejects.toBeInstanceOf(StructuredOutputError);
    expect(llm.calls.map((c) => c[0])).toEqual(['generateObject', 'generateObject']);
  });
});
