import { errorMessage } from '../provider/abort.js';
import type { ModelMessage, ModelToolCall } from '../provider/language-model.interface.js';
import { compiledSchemaOf } from './tool.js';
import type { DefinedTool, ToolDefinition } from './tool.js';
import type { ToolCallRecord } from './tool-call-record.js';

/** Tools by name; duplicate names are an error. */
export type ToolSet = ReadonlyMap<string, DefinedTool | ToolDefinition>;

function serialize(value: unknown): string {
  if (typeof value === 'string') return value;
  return JSON.stringify(value) ?? 'null';
}

async function runOne(
  call: ModelToolCall,
  tools: ToolSet,
  signal: AbortSignal,
  context: Readonly<Record<string, unknown>>,
): Promise<ToolCallRecord> {
  const base = { id: call.id, name: call.name };
  let args: unknown;
  try {
    args = JSON.parse(call.arguments === '' ? '{}' : call.arguments);
  } catch (error) {
    return {
      ...base,
      args: call.arguments,
      error: `arguments are not valid JSON: ${errorMessage(error)}`,
    };
  }
  const tool = tools.get(call.name);
  if (!tool) {
    const known = [...tools.keys()].join(', ') || 'none';
    return { ...base, args, error: `unknown tool "${call.name}"; available tools: ${known}` };
  }
  const checked = await compiledSchemaOf(tool).check(args);
  if (!checked.ok) return { ...base, args, error: `invalid arguments: ${checked.problem}` };
  try {
    const result: unknown = await tool.execute(checked.value, {
      signal,
      callId: call.id,
      context,
    });
    return { ...base, args, result };
  } catch (error) {
    if (signal.aborted) throw error;
    return { ...base, args, error: `tool "${call.name}" failed: ${errorMessage(error)}` };
  }
}

/**
 * Runs the calls of one step in parallel. Bad JSON, unknown tools, schema-invalid arguments and
 * tools that throw become `error` entries (fed back to the model), never exceptions; only an
 * abort of `signal` rejects.
 */
export function runToolCalls(
  calls: readonly ModelToolCall[],
  tools: ToolSet,
  signal: AbortSignal,
  context: Readonly<Record<string, unknown>> = {},
): Promise<ToolCallRecord[]> {
  return Promise.all(calls.map((call) => runOne(call, tools, signal, context)));
}

/** The conversation turns a step adds: the assistant's calls, then one result per call. */
export function stepMessages(
  text: string,
  calls: readonly ModelToolCall[],
  records: readonly ToolCallRecord[],
): ModelMessage[] {
  return [
    { role: 'assistant', content: text, toolCalls: [...calls] },
    ...records.map((r): ModelMessage => ({
      role: 'tool',
      toolCallId: r.id,
      name: r.name,
      content: r.error === undefined ? serialize(r.result) : JSON.stringify({ error: r.error }),
      ...(r.error === undefined ? {} : { isError: true }),
    })),
  ];
}
