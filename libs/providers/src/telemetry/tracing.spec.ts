import { afterEach, describe, expect, it } from '@jest/globals';
import { LLM } from '../llm/llm.js';
import { resolveLlmOptions } from '../llm/llm-options.js';
import { buildTargets } from '../llm/model-target.js';
import { AgentSpan } from './agent-span.js';
import { ChatSpan } from './chat-span.js';
import { tracedEmbeddings } from './embeddings-span.js';
import { ToolSpan } from './tool-span.js';
import type { TraceSpan, TraceSpanOptions, Tracer } from './tracer.interface.js';
import {
  activeTracer,
  installTracer,
  recordsContent,
  startSpan,
  traced,
  withSpan,
} from './tracing.js';

/** A tracer that records what it is asked, with no OpenTelemetry behind it. */
function recordingTracer(): Tracer & { started: { name: string; options?: TraceSpanOptions }[] } {
  const started: { name: string; options?: TraceSpanOptions }[] = [];
  return {
    recordContent: false,
    started,
    startSpan(name, options) {
      started.push({ name, options });
      const span: TraceSpan = {
        recording: true,
        setAttributes: () => undefined,
        fail: () => undefined,
        end: () => undefined,
      };
      return span;
    },
    withSpan: (_span, fn) => fn(),
  };
}

afterEach(() => installTracer(undefined));

describe('tracing while off (no tracer installed)', () => {
  it('has no tracer and records no content', () => {
    expect(activeTracer()).toBeUndefined();
    expect(recordsContent()).toBe(false);
  });

  it('startSpan hands out one shared non-recording span whose methods do nothing', () => {
    const span = startSpan('x', { attributes: { a: 1 } });
    expect(span.recording).toBe(false);
    expect(startSpan('y')).toBe(span);
    expect(() => {
      span.setAttributes({ b: 2 });
      span.fail(new Error('boom'));
      span.end();
    }).not.toThrow();
  });

  it('traced runs fn with the non-recording span and passes its result and errors through', async () => {
    await expect(traced('x', {}, (span) => Promise.resolve(span.recording))).resolves.toBe(false);
    await expect(traced('x', {}, () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
  });

  it('withSpan just runs fn', () => {
    expect(withSpan(startSpan('x'), () => 42)).toBe(42);
  });

  it('the LLM layer builds no span: its span helpers hand out nothing', async () => {
    const llm = new LLM('echo');
    const target = buildTargets(['echo'], resolveLlmOptions({}))[0];
    const request = {
      model: 'echo',
      messages: [],
      maxTokens: 5,
      signal: new AbortController().signal,
    };
    expect(ChatSpan.start(target, request, true)).toBeUndefined();
    expect(AgentSpan.start(target, undefined, [])).toBeUndefined();
    expect(ToolSpan.start({ id: 'c1', name: 'clock', arguments: '{}' }, undefined)).toBeUndefined();
    const calls: unknown[][] = [];
    await tracedEmbeddings(target, (...args) => {
      calls.push(args);
      return Promise.resolve([[1]]);
    });
    expect(calls).toEqual([[]]);
    expect(await llm.chat('hello')).toEqual(expect.any(String));
  });
});

describe('tracing while on', () => {
  it('LLM calls go to the installed tracer: a chat span per model request', async () => {
    const tracer = recordingTracer();
    installTracer(tracer);
    await new LLM('echo').chat('hello');
    expect(tracer.started.map((s) => [s.name, s.options?.kind])).toEqual([['chat echo', 'client']]);
  });
});
