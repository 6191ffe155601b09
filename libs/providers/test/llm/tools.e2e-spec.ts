import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { z } from 'zod';
import { ConfigError } from '../../src/errors/config.error.js';
import type { UsageReport } from '../../src/llm/chat-model.interface.js';
import { LLM } from '../../src/llm/llm.js';
import type { LlmStreamEvent } from '../../src/llm/tools/llm-stream-event.js';
import { defineTool } from '../../src/llm/tools/tool.js';
import { startFakeLlmServer } from '../support/fake-llm.server.js';
import type { FakeLlmServer, FakeRequest } from '../support/fake-llm.server.js';
import { rejection, within } from './llm-test.helpers.js';

const calculator = defineTool({
  name: 'calculator',
  description: 'Adds two numbers',
  parameters: {
    type: 'object',
    properties: { a: { type: 'number' }, b: { type: 'number' } },
    required: ['a', 'b'],
    additionalProperties: false,
  } as const,
  execute: ({ a, b }) => ({ sum: a + b }),
});

const clock = defineTool({
  name: 'clock',
  description: 'The current time',
  parameters: z.object({ zone: z.string() }),
  execute: ({ zone }) => `12:00 in ${zone}`,
});

const broken = defineTool({
  name: 'broken',
  description: 'Always fails',
  parameters: { type: 'object', properties: {} } as const,
  execute: () => {
    throw new Error('disk on fire');
  },
});

interface Family {
  label: string;
  make(server: FakeLlmServer): LLM;
  /** The tool results the follow-up request carries, as `[callId, content, isError]`. */
  results(req: FakeRequest): [string, string, boolean][];
  /** Tool names the request offered. */
  offered(req: FakeRequest): string[];
}

type Msg = { role: string; content: unknown; tool_call_id?: string };
type Block = { type: string; tool_use_id?: string; content?: string; is_error?: boolean };

const openaiResults = (req: FakeRequest): [string, string, boolean][] =>
  (req.body.messages as Msg[])
    .filter((m) => m.role === 'tool')
    .map((m) => [
      m.tool_call_id ?? '',
      String(m.content),
      String(m.content).startsWith('{"error"'),
    ]);
const openaiOffered = (req: FakeRequest): string[] =>
  ((req.body.tools as { function: { name: string } }[] | undefined) ?? []).map(
    (t) => t.function.name,
  );

const families: Family[] = [
  {
    label: 'OpenAI',
    make: (server) =>
      new LLM('gpt-4o-mini', {
        env: { OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: server.openaiBaseURL },
        maxRetries: 0,
      }),
    results: openaiResults,
    offered: openaiOffered,
  },
  {
    label: 'Anthropic',
    make: (server) =>
      new LLM('claude-3-5-haiku-latest', {
        env: { ANTHROPIC_API_KEY: 'sk-ant-test', ANTHROPIC_BASE_URL: server.anthropicBaseURL },
        maxRetries: 0,
      }),
    results: (req) =>
      (req.body.messages as Msg[])
        .filter((m) => m.role === 'user' && Array.isArray(m.content))
        .flatMap((m) => m.content as Block[])
        .filter((b) => b.type === 'tool_result')
        .map((b) => [b.tool_use_id ?? '', b.content ?? '', b.is_error === true]),
    offered: (req) => ((req.body.tools as { name: string }[] | undefined) ?? []).map((t) => t.name),
  },
  {
    label: 'Ollama (OpenAI-compatible)',
    make: (server) =>
      new LLM('ollama/llama3', { baseURL: `${server.url}/ollama/v1`, maxRetries: 0 }),
    results: openaiResults,
    offered: openaiOffered,
  },
];

describe.each(families)('tool loop: $label through its real SDK', (family) => {
  let server: FakeLlmServer;
  let llm: LLM;

  beforeAll(async () => {
    server = await startFakeLlmServer();
  });
  afterAll(() => server.close());
  beforeEach(() => {
    server.reset();
    llm = family.make(server);
  });

  it.each([false, true])(
    'runs parallel calls, feeds the results back and answers (streamed: %s)',
    async (streamed) => {
      server.script(
        {
          kind: 'reply',
          usage: { input: 10, output: 4 },
          toolCalls: [
            { id: 'c1', name: 'calculator', arguments: { a: 2, b: 3 } },
            { id: 'c2', name: 'clock', arguments: { zone: 'UTC' } },
          ],
        },
        { kind: 'reply', text: 'It is 5 at noon.', usage: { input: 30, output: 6 } },
      );
      const usages: UsageReport[] = [];
      const options = { tools: [calculator, clock], onUsage: (u: UsageReport) => usages.push(u) };
      let text: string;
      if (streamed) {
        const events: LlmStreamEvent[] = [];
        for await (const e of await llm.streamEvents('Add 2 and 3; time?', options)) events.push(e);
        expect(events.filter((e) => e.type !== 'text-delta')).toEqual([
          { type: 'tool-call', data: { id: 'c1', name: 'calculator', args: { a: 2, b: 3 } } },
          { type: 'tool-call', data: { id: 'c2', name: 'clock', args: { zone: 'UTC' } } },
          { type: 'tool-result', data: { id: 'c1', name: 'calculator', result: { sum: 5 } } },
          { type: 'tool-result', data: { id: 'c2', name: 'clock', result: '12:00 in UTC' } },
          {
            type: 'finish',
            data: expect.objectContaining({ finishReason: 'stop', steps: 2 }) as unknown,
          },
        ]);
        text = events.map((e) => (e.type === 'text-delta' ? e.data : '')).join('');
      } else {
        const answer = await llm.generate('Add 2 and 3; time?', options);
        expect(answer.finishReason).toBe('stop');
        expect(answer.steps).toHaveLength(2);
        expect(answer.steps[0].toolCalls).toEqual([
          { id: 'c1', name: 'calculator', args: { a: 2, b: 3 }, result: { sum: 5 } },
          { id: 'c2', name: 'clock', args: { zone: 'UTC' }, result: '12:00 in UTC' },
        ]);
        expect(answer.usage).toMatchObject({ inputTokens: 40, outputTokens: 10, totalTokens: 50 });
        text = answer.text;
      }
      expect(text).toBe('It is 5 at noon.');
      expect(server.requests).toHaveLength(2);
      expect(server.requests.every((r) => r.stream === streamed)).toBe(true);
      expect(family.offered(server.requests[0])).toEqual(['calculator', 'clock']);
      expect(family.results(server.requests[1])).toEqual([
        ['c1', '{"sum":5}', false],
        ['c2', '12:00 in UTC', false],
      ]);
      // One usage report for the whole loop, summed over both model calls.
      expect(usages).toHaveLength(1);
      expect(usages[0]).toMatchObject({ inputTokens: 40, outputTokens: 10, steps: 2 });
    },
  );

  it.each([false, true])(
    'feeds unknown tools, bad JSON, schema-invalid arguments and throwing tools back as tool errors (streamed: %s)',
    async (streamed) => {
      const anthropicNonStreamed = family.label === 'Anthropic' && !streamed;
      server.script(
        {
          kind: 'reply',
          toolCalls: [
            { id: 'u1', name: 'teleport', arguments: {} },
            // Anthropic's non-streamed API always sends parsed input, so bad JSON cannot occur there.
            anthropicNonStreamed
              ? { id: 'j1', name: 'calculator', arguments: { a: 1 } }
              : { id: 'j1', name: 'calculator', arguments: '{"a": 1, "b":' },
            { id: 's1', name: 'calculator', arguments: { a: 'two', b: 3 } },
            { id: 't1', name: 'broken', arguments: {} },
          ],
        },
        { kind: 'reply', text: 'Sorry, tools failed.' },
      );
      const options = { tools: [calculator, broken] };
      let answerText: string;
      if (streamed) {
        const events: LlmStreamEvent[] = [];
        for await (const e of await llm.streamEvents('Go', options)) events.push(e);
        const results = events.filter((e) => e.type === 'tool-result');
        expect(results.map((e) => (e.data as { error?: string }).error)).toEqual([
          expect.stringMatching(/unknown tool "teleport"; available tools: calculator, broken/),
          expect.stringMatching(/not valid JSON/),
          expect.stringMatching(/invalid arguments: \/a: must be number/),
          'tool "broken" failed: disk on fire',
        ]);
        answerText = events.map((e) => (e.type === 'text-delta' ? e.data : '')).join('');
      } else {
        const answer = await llm.generate('Go', options);
        expect(answer.steps[0].toolCalls.map((c) => c.error)).toEqual([
          expect.stringMatching(/unknown tool "teleport"/),
          anthropicNonStreamed
            ? "invalid arguments: /b: must have required property 'b'"
            : expect.stringMatching(/not valid JSON/),
          expect.stringMatching(/invalid arguments: \/a: must be number/),
          'tool "broken" failed: disk on fire',
        ]);
        answerText = answer.text;
      }
      expect(answerText).toBe('Sorry, tools failed.');
      const fed = family.results(server.requests[1]);
      expect(fed.map(([id]) => id)).toEqual(['u1', 'j1', 's1', 't1']);
      for (const [, content] of fed) expect(JSON.parse(content)).toHaveProperty('error');
      if (family.label === 'Anthropic') expect(fed.every(([, , isError]) => isError)).toBe(true);
    },
  );

  it('stops at maxSteps with finish reason max-steps, without running the last calls', async () => {
    let runs = 0;
    const counter = defineTool({
      name: 'counter',
      description: 'Counts',
      parameters: { type: 'object', properties: {} } as const,
      execute: () => ++runs,
    });
    const again = { kind: 'reply' as const, toolCalls: [{ name: 'counter', arguments: {} }] };
    server.script(again, again, again);
    const answer = await llm.generate('Loop', { tools: [counter], maxSteps: 2 });
    expect(answer.finishReason).toBe('max-steps');
    expect(answer.steps).toHaveLength(2);
    expect(runs).toBe(1);
    expect(answer.steps[1].toolCalls[0].error).toBe('not run: maxSteps (2) reached');
    expect(server.requests).toHaveLength(2);
  });

  it('aborts the running tool when the caller goes away mid tool step', async () => {
    let toolSignal: AbortSignal | undefined;
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    const slow = defineTool({
      name: 'slow',
      description: 'Waits until aborted',
      parameters: { type: 'object', properties: {} } as const,
      execute: (_args, { signal }) =>
        new Promise((_, reject) => {
          toolSignal = signal;
          started();
          signal.addEventListener('abort', () => reject(new Error('stopped')), { once: true });
        }),
    });
    server.script({ kind: 'reply', toolCalls: [{ name: 'slow', arguments: {} }] });
    const controller = new AbortController();
    const events = await llm.streamEvents('Go', { tools: [slow], signal: controller.signal });
    const seen: string[] = [];
    const consuming = (async () => {
      for await (const e of events) seen.push(e.type);
    })();
    await within(running, 5000, 'the tool start');
    controller.abort();
    const error = await rejection(consuming);
    expect(toolSignal?.aborted).toBe(true);
    expect(error.message).toBe('stopped');
    expect(seen).toEqual(['tool-call']);
    expect(server.requests).toHaveLength(1);
  });

  it('plain chat with tools still returns only the final text, streamed or not', async () => {
    const call = {
      kind: 'reply' as const,
      toolCalls: [{ name: 'calculator', arguments: { a: 1, b: 1 } }],
    };
    server.script(call, { kind: 'reply', text: 'Two.' }, call, { kind: 'reply', text: 'Two.' });
    expect(await llm.chat('1+1?', { tools: [calculator] })).toBe('Two.');
    const chunks: string[] = [];
    for await (const c of await llm.chat('1+1?', { tools: [calculator], stream: true })) {
      chunks.push(c);
    }
    expect(chunks.join('')).toBe('Two.');
  });
});

describe('tool definitions', () => {
  it('refuses a parameters object that is not valid JSON Schema, naming the tool', () => {
    const error = (() => {
      try {
        defineTool({
          name: 'bad',
          description: 'x',
          parameters: { type: 'object', properties: { a: { type: 'strin' } } },
          execute: () => 1,
        });
      } catch (e) {
        return e as Error;
      }
      throw new Error('expected defineTool to throw');
    })();
    expect(error).toBeInstanceOf(ConfigError);
    expect(error.message).toMatch(/parameters is not a valid JSON Schema: .* in tool "bad"/);
  });

  it('refuses bad names and non-object schemas', () => {
    const base = { description: 'x', execute: () => 1 };
    expect(() =>
      defineTool({ ...base, name: 'has space', parameters: { type: 'object' } }),
    ).toThrow(/name must be 1-64 letters/);
    expect(() => defineTool({ ...base, name: 'n', parameters: { type: 'string' } })).toThrow(
      /must describe an object/,
    );
  });

  it('refuses duplicate tool names and a bad maxSteps as 422', async () => {
    const llm = new LLM('echo');
    const dup = await rejection(llm.generate('x', { tools: [calculator, calculator] }));
    expect(dup).toMatchObject({ statusCode: 422 });
    const steps = await rejection(llm.generate('x', { tools: [calculator], maxSteps: 0 }));
    expect(steps).toMatchObject({ statusCode: 422 });
  });
});
