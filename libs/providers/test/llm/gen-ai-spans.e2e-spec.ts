/**
 * The `chat` and `embeddings` spans of LLM calls (OpenTelemetry GenAI semantic conventions),
 * with the real OpenTelemetry SDK and the real OpenAI and Anthropic SDK clients against the
 * local fake provider server: names, kinds, parents, attributes equal to what the server sent,
 * streams ending with their last chunk, aborted and failed calls, fallbacks, one span per
 * Anthropic call, and no message content unless `recordContent` is on.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import Anthropic from '@anthropic-ai/sdk';
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import type { UsageReport } from '../../src/llm/chat-model.interface.js';
import { LLM } from '../../src/llm/llm.js';
import {
  TOOLKIT_TRACER_NAME,
  openTelemetryTracer,
} from '../../src/telemetry/open-telemetry.tracer.js';
import { installTracer } from '../../src/telemetry/tracing.js';
import { parentId, recordSpans } from '../support/span-recorder.js';
import type { SpanRecorder } from '../support/span-recorder.js';
import { startFakeLlmServer } from '../support/fake-llm.server.js';
import type { FakeLlmServer } from '../support/fake-llm.server.js';
import { collect, rejection } from './llm-test.helpers.js';

const CONTENT_KEYS = [
  'gen_ai.system_instructions',
  'gen_ai.input.messages',
  'gen_ai.output.messages',
] as const;

let server: FakeLlmServer;
let recorder: SpanRecorder;
let port: number;

beforeAll(async () => {
  server = await startFakeLlmServer();
  port = Number(new URL(server.url).port);
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

const openai = (model = 'gpt-4o-mini') =>
  new LLM(model, { apiKey: 'sk-test', baseURL: server.openaiBaseURL, maxRetries: 0 });
const anthropic = () =>
  new LLM('claude-3-5-haiku-latest', {
    env: { ANTHROPIC_API_KEY: 'sk-ant-test', ANTHROPIC_BASE_URL: server.anthropicBaseURL },
    maxRetries: 0,
  });
const chatSpans = (): ReadableSpan[] => recorder.spans().filter((s) => s.name.startsWith('chat '));

/** Toolkit's tracer again over the same SDK, with `recordContent` on or off. */
async function recordContent(on: boolean): Promise<void> {
  installTracer(await openTelemetryTracer({ recordContent: on }));
}

function expectNoContent(span: ReadableSpan): void {
  for (const key of CONTENT_KEYS) expect(span.attributes).not.toHaveProperty(key);
}

describe('chat spans', () => {
  it('OpenAI: one CLIENT span under the active span, with what the server answered', async () => {
    server.script({ kind: 'reply', text: 'Hi there', usage: { input: 9, output: 2 } });
    const llm = new LLM('gpt-4o-mini', {
      apiKey: 'sk-test',
      baseURL: server.openaiBaseURL,
      temperature: 0.3,
      maxTokens: 50,
    });
    const { parent } = await recorder.withinParent(() =>
      llm.chat('Hello', { system: 'Be brief.' }),
    );
    const [span] = recorder.named('chat gpt-4o-mini');
    expect(chatSpans()).toHaveLength(1);
    expect(span.kind).toBe(SpanKind.CLIENT);
    expect(span.instrumentationScope.name).toBe(TOOLKIT_TRACER_NAME);
    expect(parentId(span)).toBe(parent.spanContext().spanId);
    expect(span.status.code).toBe(SpanStatusCode.UNSET);
    expect(span.attributes).toEqual({
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': 'openai',
      'gen_ai.request.model': 'gpt-4o-mini',
      'gen_ai.request.temperature': 0.3,
      'gen_ai.request.max_tokens': 50,
      'gen_ai.request.stream': false,
      'gen_ai.response.model': 'gpt-4o-mini',
      'gen_ai.response.id': 'chatcmpl-fake',
      'gen_ai.response.finish_reasons': ['stop'],
      'gen_ai.usage.input_tokens': 9,
      'gen_ai.usage.output_tokens': 2,
      // gpt-4o-mini: $0.15 in, $0.60 out per 1M tokens.
      'toolkit.llm.cost_usd': expect.closeTo((9 * 0.15 + 2 * 0.6) / 1e6, 15),
      'server.address': '127.0.0.1',
      'server.port': port,
    });
  });

  it('Anthropic: exactly one chat span per call, none from the SDK’s own instrumentation', async () => {
    server.script(
      {
        kind: 'reply',
        text: 'Bonjour',
        usage: { input: 7, output: 1 },
        finishReason: 'max_tokens',
      },
      { kind: 'reply', chunks: ['Sa', 'lut'], usage: { input: 7, output: 2 } },
    );
    const llm = anthropic();
    await llm.chat('Say hello');
    await collect(await llm.chat('Say hello', { stream: true }));
    expect(server.requests).toHaveLength(2);
    const spans = recorder.spans();
    expect(spans.map((s) => s.name)).toEqual([
      'chat claude-3-5-haiku-latest',
      'chat claude-3-5-haiku-latest',
    ]);
    expect(spans.every((s) => s.instrumentationScope.name === TOOLKIT_TRACER_NAME)).toBe(true);
    const [plain, streamed] = spans;
    expect(plain.attributes).toMatchObject({
      'gen_ai.provider.name': 'anthropic',
      'gen_ai.response.id': 'msg_fake',
      'gen_ai.response.model': 'claude-3-5-haiku-latest',
      'gen_ai.response.finish_reasons': ['length'],
      'gen_ai.usage.input_tokens': 7,
      'gen_ai.usage.output_tokens': 1,
      'gen_ai.request.max_tokens': 1024,
    });
    // The Messages API gets no temperature, so the span claims none.
    expect(plain.attributes).not.toHaveProperty('gen_ai.request.temperature');
    expect(streamed.attributes).toMatchObject({
      'gen_ai.request.stream': true,
      'gen_ai.response.id': 'msg_fake',
      'gen_ai.usage.output_tokens': 2,
      'gen_ai.response.finish_reasons': ['stop'],
    });
  });

  it('the Anthropic SDK would trace on its own: the check above is meaningful', async () => {
    const client = new Anthropic({ apiKey: 'sk-ant-test', baseURL: server.anthropicBaseURL });
    await client.messages.create({
      model: 'claude-3-5-haiku-latest',
      max_tokens: 10,
      messages: [{ role: 'user', content: 'hi' }],
    });
    const scopes = recorder.spans().map((s) => s.instrumentationScope.name);
    expect(scopes.some((name) => name !== TOOLKIT_TRACER_NAME)).toBe(true);
  });

  it('an OpenAI-compatible host is named by the conventions’ provider name', async () => {
    const llm = new LLM('mistral-small-latest', {
      env: { MISTRAL_API_KEY: 'm-key', MISTRAL_BASE_URL: `${server.url}/mistral/v1` },
      maxRetries: 0,
    });
    server.script({ kind: 'reply', text: 'oui', usage: { input: 3, output: 1 } });
    await llm.chat('hello');
    const [span] = recorder.named('chat mistral-small-latest');
    expect(span.attributes).toMatchObject({
      'gen_ai.provider.name': 'mistral_ai',
      'gen_ai.request.model': 'mistral-small-latest',
      'gen_ai.usage.input_tokens': 3,
      'server.address': '127.0.0.1',
      'server.port': port,
    });
  });

  it('structured output says gen_ai.output.type json', async () => {
    server.script({ kind: 'reply', text: '{"city":"Paris"}' });
    const schema = {
      type: 'object',
      properties: { city: { type: 'string' } },
      required: ['city'],
    } as const;
    await openai().generateObject('Where?', { schema });
    const [span] = chatSpans();
    expect(span.attributes['gen_ai.output.type']).toBe('json');
  });
});

describe('streamed chat spans', () => {
  it('end after the last chunk, with usage and time to first chunk; the report has TTFT', async () => {
    server.script({ kind: 'reply', chunks: ['a ', 'b ', 'c'], usage: { input: 4, output: 3 } });
    const reports: UsageReport[] = [];
    const stream = await openai().chat('Hi', { stream: true, onUsage: (u) => reports.push(u) });
    const chunks: string[] = [];
    for await (const chunk of stream) {
      chunks.push(chunk);
      expect(chatSpans()).toHaveLength(0);
    }
    expect(chunks).toEqual(['a ', 'b ', 'c']);
    const [span] = chatSpans();
    expect(span.attributes).toMatchObject({
      'gen_ai.request.stream': true,
      'gen_ai.response.id': 'chatcmpl-fake',
      'gen_ai.usage.input_tokens': 4,
      'gen_ai.usage.output_tokens': 3,
      'gen_ai.response.finish_reasons': ['stop'],
    });
    const ttfc = span.attributes['gen_ai.response.time_to_first_chunk'] as number;
    expect(ttfc).toBeGreaterThan(0);
    expect(reports).toHaveLength(1);
    const [report] = reports;
    expect(report.timeToFirstTokenMs).toBeGreaterThan(0);
    expect(report.timeToFirstTokenMs).toBeLessThanOrEqual(report.durationMs ?? 0);
  });

  it('non-streamed calls report no time to first token', async () => {
    const reports: UsageReport[] = [];
    await openai().chat('Hi', { onUsage: (u) => reports.push(u) });
    expect(reports[0]).not.toHaveProperty('timeToFirstTokenMs');
    expect(chatSpans()[0].attributes).not.toHaveProperty('gen_ai.response.time_to_first_chunk');
  });

  it('a consumer that stops early ends the span, marked abandoned, not failed', async () => {
    server.script({ kind: 'reply', chunks: ['one ', 'two ', 'three'] });
    for await (const chunk of await openai().chat('Hi', { stream: true })) {
      expect(chunk).toBe('one ');
      break;
    }
    const [span] = chatSpans();
    expect(span.attributes['toolkit.llm.stream.abandoned']).toBe(true);
    expect(span.status.code).toBe(SpanStatusCode.UNSET);
  });

  it('an aborted signal ends the span with error.type', async () => {
    server.script({ kind: 'hang-after', chunks: ['one ', 'two '] });
    const controller = new AbortController();
    const stream = await openai().chat('Hi', { stream: true, signal: controller.signal });
    const reading = (async () => {
      for await (const chunk of stream) if (chunk === 'two ') controller.abort();
    })();
    expect((await rejection(reading)).name).toBe('LlmAbortedError');
    const [span] = chatSpans();
    expect(span.status.code).toBe(SpanStatusCode.ERROR);
    expect(span.attributes['error.type']).toBe('LlmAbortedError');
  });

  it('a provider failure mid-stream ends the span as failed', async () => {
    server.script({ kind: 'drop-after', chunks: ['one ', 'two '] });
    await rejection(collect(await openai().chat('Hi', { stream: true })));
    const [span] = chatSpans();
    expect(span.status.code).toBe(SpanStatusCode.ERROR);
    expect(span.attributes['error.type']).toEqual(expect.any(String));
    expect(span.events.map((e) => e.name)).toContain('exception');
  });
});

describe('failures and fallbacks', () => {
  it('a rejected call is an error span', async () => {
    server.script({ kind: 'error', status: 401, message: 'bad key' });
    await rejection(openai().chat('Hi'));
    const [span] = chatSpans();
    expect(span.status.code).toBe(SpanStatusCode.ERROR);
    expect(span.attributes['error.type']).toBe('ProviderAuthError');
  });

  it('each fallback attempt is its own span; the failed one carries error.type', async () => {
    server.script({ when: { api: 'openai' }, kind: 'error', status: 500 });
    const llm = new LLM(['gpt-4o-mini', 'claude-3-5-haiku-latest'], {
      apiKey: 'sk-test',
      baseURL: server.openaiBaseURL,
      env: { ANTHROPIC_API_KEY: 'sk-ant-test', ANTHROPIC_BASE_URL: server.anthropicBaseURL },
      maxRetries: 0,
    });
    await recorder.withinParent(() => llm.chat('Hi'));
    const [failed, answered] = chatSpans();
    expect(failed.name).toBe('chat gpt-4o-mini');
    expect(failed.attributes['error.type']).toBe('ProviderError');
    expect(answered.name).toBe('chat claude-3-5-haiku-latest');
    expect(answered.status.code).toBe(SpanStatusCode.UNSET);
    expect(parentId(failed)).toBe(parentId(answered));
  });
});

describe('embeddings spans', () => {
  it('one CLIENT span per embed(), with input tokens and the dimension count', async () => {
    await openai().embed(['red apple', 'green pear tree']);
    const [span] = recorder.named('embeddings text-embedding-3-small');
    expect(span.kind).toBe(SpanKind.CLIENT);
    expect(span.attributes).toMatchObject({
      'gen_ai.operation.name': 'embeddings',
      'gen_ai.provider.name': 'openai',
      'gen_ai.request.model': 'text-embedding-3-small',
      'gen_ai.usage.input_tokens': 5,
      'gen_ai.embeddings.dimension.count': 64,
    });
  });
});

describe('content', () => {
  it('is absent by default', async () => {
    await openai().chat('Hello', { system: 'Be brief.' });
    expectNoContent(chatSpans()[0]);
  });

  it('is recorded in the conventions’ shape when recordContent is on', async () => {
    await recordContent(true);
    try {
      server.script({ kind: 'reply', chunks: ['Hi ', 'you'] });
      await collect(await openai().chat('Hello', { system: 'Be brief.', stream: true }));
    } finally {
      await recordContent(false);
    }
    const { attributes } = chatSpans()[0];
    expect(JSON.parse(attributes['gen_ai.system_instructions'] as string)).toEqual([
      { type: 'text', content: 'Be brief.' },
    ]);
    expect(JSON.parse(attributes['gen_ai.input.messages'] as string)).toEqual([
      { role: 'user', parts: [{ type: 'text', content: 'Hello' }] },
    ]);
    expect(JSON.parse(attributes['gen_ai.output.messages'] as string)).toEqual([
      { role: 'assistant', parts: [{ type: 'text', content: 'Hi you' }], finish_reason: 'stop' },
    ]);
  });
});
