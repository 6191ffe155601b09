/**
 * The spans of tool loops (OpenTelemetry GenAI semantic conventions): an `invoke_agent` span
 * whose children are one `chat` span per step and one `execute_tool` span per tool call, the
 * tool's own spans under its `execute_tool` span. Real OpenTelemetry SDK, real OpenAI and
 * Anthropic SDK clients against the local fake provider server.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import type { UsageReport } from '../../src/llm/chat-model.interface.js';
import { LLM } from '../../src/llm/llm.js';
import { defineTool } from '../../src/llm/tools/tool.js';
import {
  TOOLKIT_TRACER_NAME,
  openTelemetryTracer,
} from '../../src/telemetry/open-telemetry.tracer.js';
import { installTracer } from '../../src/telemetry/tracing.js';
import { startFakeLlmServer } from '../support/fake-llm.server.js';
import type { FakeLlmServer } from '../support/fake-llm.server.js';
import { parentId, recordSpans } from '../support/span-recorder.js';
import type { SpanRecorder } from '../support/span-recorder.js';

/** A tool whose work makes a span of its own, as an instrumented HTTP client would. */
const lookup = defineTool({
  name: 'lookup',
  description: 'Weather of a city',
  parameters: {
    type: 'object',
    properties: { city: { type: 'string' } },
    required: ['city'],
  } as const,
  execute: ({ city }) =>
    trace.getTracer('test').startActiveSpan('lookup.http', (span) => {
      span.end();
      return `sunny in ${city}`;
    }),
});

const broken = defineTool({
  name: 'broken',
  description: 'Always fails',
  parameters: { type: 'object', properties: {} } as const,
  execute: () => {
    throw new TypeError('disk on fire');
  },
});

let server: FakeLlmServer;
let recorder: SpanRecorder;

beforeAll(async () => {
  server = await startFakeLlmServer();
  recorder = await recordSpans();
});
afterAll(async () => {
  await recorder.uninstall();
  await server.close();
});
beforeEach(() => {
  server.reset();
  recorder.reset();
});

const openai = () =>
  new LLM('gpt-4o-mini', { apiKey: 'sk-test', baseURL: server.openaiBaseURL, maxRetries: 0 });
const anthropic = () =>
  new LLM('claude-3-5-haiku-latest', {
    env: { ANTHROPIC_API_KEY: 'sk-ant-test', ANTHROPIC_BASE_URL: server.anthropicBaseURL },
    maxRetries: 0,
  });
const one = (name: string): ReadableSpan => {
  const spans = recorder.named(name);
  expect(spans).toHaveLength(1);
  return spans[0];
};
const idOf = (span: ReadableSpan): string => span.spanContext().spanId;
const lookupThenAnswer = () =>
  server.script(
    {
      kind: 'reply',
      toolCalls: [{ id: 'call_1', name: 'lookup', arguments: { city: 'Paris' } }],
      usage: { input: 10, output: 5 },
    },
    { kind: 'reply', text: 'It is sunny.', usage: { input: 20, output: 3 } },
  );

describe('a non-streamed tool loop', () => {
  it('is an invoke_agent span over its chat steps and tool calls', async () => {
    lookupThenAnswer();
    const reports: UsageReport[] = [];
    const { value, parent } = await recorder.withinParent(() =>
      openai().generate('Weather in Paris?', { tools: [lookup], onUsage: (u) => reports.push(u) }),
    );
    expect(value.text).toBe('It is sunny.');
    const agent = one('invoke_agent toolkit');
    const steps = recorder.named('chat gpt-4o-mini');
    const tool = one('execute_tool lookup');
    const inner = one('lookup.http');
    expect(agent.kind).toBe(SpanKind.INTERNAL);
    expect(tool.kind).toBe(SpanKind.INTERNAL);
    expect(parentId(agent)).toBe(parent.spanContext().spanId);
    expect(steps.map(parentId)).toEqual([idOf(agent), idOf(agent)]);
    expect(parentId(tool)).toBe(idOf(agent));
    expect(parentId(inner)).toBe(idOf(tool));

    expect(steps.map((s) => s.attributes['gen_ai.response.finish_reasons'])).toEqual([
      ['tool_call'],
      ['stop'],
    ]);
    expect(steps.map((s) => s.attributes['gen_ai.usage.input_tokens'])).toEqual([10, 20]);
    const stepCost = steps.reduce(
      (n, s) => n + (s.attributes['toolkit.llm.cost_usd'] as number),
      0,
    );
    expect(agent.attributes).toEqual({
      'gen_ai.operation.name': 'invoke_agent',
      'gen_ai.agent.name': 'toolkit',
      'gen_ai.provider.name': 'openai',
      'gen_ai.request.model': 'gpt-4o-mini',
      'gen_ai.response.model': 'gpt-4o-mini',
      'gen_ai.response.finish_reasons': ['stop'],
      'gen_ai.usage.input_tokens': 30,
      'gen_ai.usage.output_tokens': 8,
      'toolkit.llm.cost_usd': expect.closeTo(stepCost, 15),
      'toolkit.llm.steps': 2,
    });
    expect(reports[0].costUsd).toBeCloseTo(stepCost, 15);
    expect(tool.attributes).toEqual({
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'lookup',
      'gen_ai.tool.call.id': 'call_1',
      'gen_ai.tool.type': 'function',
      'gen_ai.tool.description': 'Weather of a city',
    });
    expect(tool.status.code).toBe(SpanStatusCode.UNSET);
  });

  it('failed, unknown and badly called tools end their spans with error.type', async () => {
    server.script(
      {
        kind: 'reply',
        toolCalls: [
          { id: 'c_broken', name: 'broken', arguments: {} },
          { id: 'c_nope', name: 'nope', arguments: {} },
          { id: 'c_bad', name: 'lookup', arguments: '{"city": 4' },
        ],
      },
      { kind: 'reply', text: 'Sorry.' },
    );
    await openai().generate('Go', { tools: [lookup, broken] });
    const byCall = new Map(
      recorder
        .spans()
        .filter((s) => s.name.startsWith('execute_tool '))
        .map((s) => [s.attributes['gen_ai.tool.call.id'], s]),
    );
    expect([...byCall.keys()].sort()).toEqual(['c_bad', 'c_broken', 'c_nope']);
    const errorOf = (id: string) => byCall.get(id)?.attributes['error.type'];
    expect(errorOf('c_broken')).toBe('TypeError');
    expect(errorOf('c_nope')).toBe('tool_not_found');
    expect(errorOf('c_bad')).toBe('invalid_arguments');
    for (const span of byCall.values()) expect(span.status.code).toBe(SpanStatusCode.ERROR);
    expect(one('invoke_agent toolkit').status.code).toBe(SpanStatusCode.UNSET);
  });

  it('a call without tools gets no agent span', async () => {
    await openai().generate('Hi', { tools: [] });
    expect(recorder.spans().map((s) => s.name)).toEqual(['chat gpt-4o-mini']);
  });

  it('a failing step fails the agent span', async () => {
    server.script(
      { kind: 'reply', toolCalls: [{ id: 'call_1', name: 'lookup', arguments: { city: 'X' } }] },
      { kind: 'error', status: 400, message: 'bad request' },
    );
    await expect(openai().generate('Go', { tools: [lookup] })).rejects.toThrow();
    const agent = one('invoke_agent toolkit');
    expect(agent.status.code).toBe(SpanStatusCode.ERROR);
    expect(agent.attributes['error.type']).toEqual(expect.any(String));
  });
});

describe('a streamed tool loop (Anthropic)', () => {
  it('ends its agent span with the stream, one chat span per Anthropic request', async () => {
    lookupThenAnswer();
    const reports: UsageReport[] = [];
    const events = await anthropic().streamEvents('Weather in Paris?', {
      tools: [lookup],
      onUsage: (u) => reports.push(u),
    });
    const types: string[] = [];
    for await (const event of events) {
      // The loop is over once it produces its finish event, so the span ends just before it.
      if (event.type !== 'finish') expect(recorder.named('invoke_agent toolkit')).toHaveLength(0);
      types.push(event.type);
    }
    expect(types).toEqual([
      'tool-call',
      'tool-result',
      'text-delta',
      'text-delta',
      'text-delta',
      'finish',
    ]);
    const agent = one('invoke_agent toolkit');
    const steps = recorder.named('chat claude-3-5-haiku-latest');
    expect(steps).toHaveLength(server.requests.length);
    expect(steps).toHaveLength(2);
    expect(
      recorder.spans().every((s) => s.instrumentationScope.name !== 'com.anthropic.sdk.typescript'),
    ).toBe(true);
    expect(steps.map(parentId)).toEqual([idOf(agent), idOf(agent)]);
    expect(parentId(one('execute_tool lookup'))).toBe(idOf(agent));
    expect(parentId(one('lookup.http'))).toBe(idOf(one('execute_tool lookup')));
    expect(agent.attributes).toMatchObject({
      'gen_ai.provider.name': 'anthropic',
      'gen_ai.usage.input_tokens': 30,
      'gen_ai.usage.output_tokens': 8,
      'toolkit.llm.steps': 2,
    });
    expect(
      steps.every((s) => s.attributes['gen_ai.response.time_to_first_chunk'] !== undefined),
    ).toBe(true);
    expect(reports[0].timeToFirstTokenMs).toBeGreaterThan(0);
    expect(
      recorder
        .spans()
        .every(
          (s) => s.instrumentationScope.name === TOOLKIT_TRACER_NAME || s.name === 'lookup.http',
        ),
    ).toBe(true);
  });

  it('a consumer that stops early ends the agent and chat spans', async () => {
    lookupThenAnswer();
    for await (const event of await anthropic().streamEvents('Go', { tools: [lookup] })) {
      expect(event.type).toBe('tool-call');
      break;
    }
    expect(one('invoke_agent toolkit').attributes['toolkit.llm.stream.abandoned']).toBe(true);
    expect(one('chat claude-3-5-haiku-latest').attributes['toolkit.llm.stream.abandoned']).toBe(
      true,
    );
    expect(recorder.named('execute_tool lookup')).toHaveLength(0);
  });
});

describe('content of tool loops', () => {
  it('tool arguments and results, and the tool turns of the next step, with recordContent', async () => {
    installTracer(await openTelemetryTracer({ recordContent: true }));
    try {
      lookupThenAnswer();
      await openai().generate('Weather in Paris?', { tools: [lookup] });
    } finally {
      installTracer(await openTelemetryTracer({ recordContent: false }));
    }
    expect(one('execute_tool lookup').attributes).toMatchObject({
      'gen_ai.tool.call.arguments': '{"city":"Paris"}',
      'gen_ai.tool.call.result': 'sunny in Paris',
    });
    const [first, second] = recorder.named('chat gpt-4o-mini');
    expect(JSON.parse(first.attributes['gen_ai.output.messages'] as string)).toEqual([
      {
        role: 'assistant',
        parts: [{ type: 'tool_call', id: 'call_1', name: 'lookup', arguments: { city: 'Paris' } }],
        finish_reason: 'tool_call',
      },
    ]);
    expect(JSON.parse(second.attributes['gen_ai.input.messages'] as string)).toEqual([
      { role: 'user', parts: [{ type: 'text', content: 'Weather in Paris?' }] },
      {
        role: 'assistant',
        parts: [{ type: 'tool_call', id: 'call_1', name: 'lookup', arguments: { city: 'Paris' } }],
      },
      {
        role: 'tool',
        parts: [{ type: 'tool_call_response', id: 'call_1', response: 'sunny in Paris' }],
      },
    ]);
  });

  it('none without recordContent', async () => {
    lookupThenAnswer();
    await openai().generate('Weather in Paris?', { tools: [lookup] });
    for (const span of recorder.spans()) {
      const keys = Object.keys(span.attributes);
      expect(keys.filter((k) => /messages|instructions|arguments|result/.test(k))).toEqual([]);
    }
  });
});
