import { ValidationError } from '../../errors/validation.error.js';
import type { TraceSpan } from '../../telemetry/tracer.interface.js';
import type {
  FinishReason,
  GenerateResult,
  ModelMessage,
  ModelToolCall,
  TokenUsage,
} from '../provider/language-model.interface.js';
import { usageOf } from '../provider/language-model.interface.js';
import type { ContentPart } from '../stream-session.js';
import type { LlmStreamEvent } from './llm-stream-event.js';
import { runToolCalls, stepMessages } from './run-tool-calls.js';
import type { ToolSet } from './run-tool-calls.js';
import { defineTool } from './tool.js';
import type { DefinedTool, ToolDefinition } from './tool.js';
import type { SchemaInput } from './schema-validator.js';
import type { GenerateStep, ToolCallRecord } from './tool-call-record.js';

/** Default most model calls of one tool loop. */
export const DEFAULT_MAX_STEPS = 5;

/** Sums usages; undefined when none was reported. */
export function sumUsage(usages: readonly (TokenUsage | undefined)[]): TokenUsage | undefined {
  const known = usages.filter((u): u is TokenUsage => u !== undefined);
  if (known.length === 0) return undefined;
  return usageOf(
    known.reduce((n, u) => n + u.inputTokens, 0),
    known.reduce((n, u) => n + u.outputTokens, 0),
  );
}

const isArray = (value: unknown): boolean => Array.isArray(value);

/** Checks the tools and `maxSteps` of a call; 422 on bad input, `ConfigError` on a bad tool. */
export function toolSetOf(
  tools: readonly (DefinedTool | ToolDefinition)[] | undefined,
  maxSteps: unknown,
): { tools: ToolSet; maxSteps: number } {
  if (maxSteps !== undefined && (!Number.isInteger(maxSteps) || (maxSteps as number) < 1)) {
    throw new ValidationError([{ param: 'maxSteps', problem: 'must be an integer >= 1' }]);
  }
  const list: readonly (DefinedTool | ToolDefinition)[] = tools ?? [];
  if (!isArray(list)) {
    throw new ValidationError([{ param: 'tools', problem: 'must be an array of tools' }]);
  }
  const set = new Map<string, DefinedTool>();
  for (const tool of list) {
    const defined: DefinedTool = defineTool<SchemaInput, unknown>(tool);
    if (set.has(defined.name)) {
      throw new ValidationError([
        { param: 'tools', problem: `has two tools named "${defined.name}"` },
      ]);
    }
    set.set(defined.name, defined);
  }
  return { tools: set, maxSteps: (maxSteps as number | undefined) ?? DEFAULT_MAX_STEPS };
}

/** What the loop needs from the model: one call on a conversation. */
export interface ToolLoopCall {
  messages: readonly ModelMessage[];
  tools: ToolSet;
  maxSteps: number;
  signal: AbortSignal;
  /** Passed to every tool's `execute` as `context.context` (`toolContext` of the call). */
  context: Readonly<Record<string, unknown>>;
  /** The `invoke_agent` span the `execute_tool` spans belong to, while tracing is on. */
  span?: TraceSpan;
}

/** A finished tool loop. */
export interface ToolLoopResult {
  text: string;
  finishReason: FinishReason;
  usage?: TokenUsage;
  steps: GenerateStep[];
}

const notRun = (calls: readonly ModelToolCall[], maxSteps: number): ToolCallRecord[] =>
  calls.map((c) => ({
    id: c.id,
    name: c.name,
    args: c.arguments,
    error: `not run: maxSteps (${maxSteps}) reached`,
  }));

/**
 * The tool loop, non-streamed: calls the model; while it asks for tools, runs them (in
 * parallel) and calls it again with the results, up to `maxSteps` model calls. Ends with the
 * model's text, or with finish reason `max-steps` when the last allowed call still asked for
 * tools (those calls are recorded, not run).
 */
export async function runToolLoop(
  call: ToolLoopCall,
  generate: (messages: ModelMessage[]) => Promise<GenerateResult>,
): Promise<ToolLoopResult> {
  const messages = [...call.messages];
  const steps: GenerateStep[] = [];
  for (let n = 1; ; n++) {
    const result = await generate(messages);
    const calls = call.tools.size > 0 ? (result.toolCalls ?? []) : [];
    const base = { text: result.text, finishReason: result.finishReason, usage: result.usage };
    if (calls.length === 0) {
      steps.push({ ...base, toolCalls: [] });
      return finish(steps, result.finishReason);
    }
    if (n >= call.maxSteps) {
      steps.push({ ...base, toolCalls: notRun(calls, call.maxSteps) });
      return finish(steps, 'max-steps');
    }
    const records = await runToolCalls(calls, call.tools, call.signal, call.context, call.span);
    steps.push({ ...base, toolCalls: records });
    messages.push(...stepMessages(result.text, calls, records));
  }
}

function finish(steps: GenerateStep[], finishReason: FinishReason): ToolLoopResult {
  const usage = sumUsage(steps.map((s) => s.usage));
  return { text: steps.at(-1)?.text ?? '', finishReason, steps, ...(usage ? { usage } : {}) };
}

/** One streamed model call: its parts, and its finish once they are consumed. */
export interface OpenedStep {
  parts: AsyncIterable<ContentPart>;
  finish(): { finishReason: FinishReason; usage?: TokenUsage } | undefined;
}

/**
 * The tool loop, streamed: relays text deltas as they come, a `tool-call` event per call and a
 * `tool-result` event per result, then one `finish` event (summed usage over the steps).
 * `first` is the already opened first step (so failures to start surface before streaming).
 */
export async function* streamToolLoop(
  call: ToolLoopCall,
  first: OpenedStep,
  open: (messages: ModelMessage[]) => Promise<OpenedStep>,
  onDone: (result: ToolLoopResult) => LlmStreamEvent,
): AsyncGenerator<LlmStreamEvent> {
  const messages = [...call.messages];
  const steps: GenerateStep[] = [];
  let step = first;
  for (let n = 1; ; n++) {
    let text = '';
    const calls: ModelToolCall[] = [];
    for await (const part of step.parts) {
      if (part.type === 'text-delta') {
        text += part.text;
        yield { type: 'text-delta', data: part.text };
      } else if (call.tools.size > 0) {
        const { type: _type, ...toolCall } = part;
        calls.push(toolCall);
        yield { type: 'tool-call', data: { id: part.id, name: part.name, args: parsed(part) } };
      }
    }
    const end = step.finish() ?? { finishReason: 'stop' as const };
    const base = { text, finishReason: end.finishReason, usage: end.usage };
    if (calls.length === 0) {
      steps.push({ ...base, toolCalls: [] });
      yield onDone(finish(steps, end.finishReason));
      return;
    }
    if (n >= call.maxSteps) {
      steps.push({ ...base, toolCalls: notRun(calls, call.maxSteps) });
      yield onDone(finish(steps, 'max-steps'));
      return;
    }
    const records = await runToolCalls(calls, call.tools, call.signal, call.context, call.span);
    for (const r of records) {
      const outcome = r.error === undefined ? { result: r.result } : { error: r.error };
      yield { type: 'tool-result', data: { id: r.id, name: r.name, ...outcome } };
    }
    steps.push({ ...base, toolCalls: records });
    messages.push(...stepMessages(text, calls, records));
    step = await open(messages);
  }
}

function parsed(call: ModelToolCall): unknown {
  try {
    return JSON.parse(call.arguments === '' ? '{}' : call.arguments);
  } catch {
    return call.arguments;
  }
}
