import { ToolSpan } from '../../telemetry/tool-span.js';
import type { ToolRejection } from '../../telemetry/tool-span.js';
import type { TraceSpan } from '../../telemetry/tracer.interface.js';
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
  run: ToolRun,
  span: ToolSpan | undefined,
): Promise<ToolCallRecord> {
  const base = { id: call.id, name: call.name };
  const refuse = (type: ToolRejection, args: unknown, error: string): ToolCallRecord => {
    span?.reject(type, error);
    return { ...base, args, error };
  };
  let args: unknown;
  try {
    args = JSON.parse(call.arguments === '' ? '{}' : call.arguments);
  } catch (error) {
    const problem = `arguments are not valid JSON: ${errorMessage(error)}`;
    return refuse('invalid_arguments', call.arguments, problem);
  }
  const tool = run.tools.get(call.name);
  if (!tool) {
    const known = [...run.tools.keys()].join(', ') || 'none';
    const problem = `unknown tool "${call.name}"; available tools: ${known}`;
    return refuse('tool_not_found', args, problem);
  }
  span?.describe(tool.description);
  const checked = await compiledSchemaOf(tool).check(args);
  if (!checked.ok)
    return refuse('invalid_arguments', args, `invalid arguments: ${checked.problem}`);
  const { signal, context } = run;
  const execute = () => tool.execute(checked.value, { signal, callId: call.id, context });
  try {
    const result: unknown = await (span ? span.run(execute) : execute());
    span?.succeed(() => serialize(result));
    return { ...base, args, result };
  } catch (error) {
    span?.fail(error);
    if (signal.aborted) throw error;
    return { ...base, args, error: `tool "${call.name}" failed: ${errorMessage(error)}` };
  }
}

/** What every call of one step shares. */
interface ToolRun {
  tools: ToolSet;
  signal: AbortSignal;
  context: Readonly<Record<string, unknown>>;
}

/**
 * Runs the calls of one step in parallel. Bad JSON, unknown tools, schema-invalid arguments and
 * tools that throw become `error` entries (fed back to the model), never exceptions; only an
 * abort of `signal` rejects. Each call is an `execute_tool` span under `parent` while tracing is on.
 */
export function runToolCalls(
  calls: readonly ModelToolCall[],
  tools: ToolSet,
  signal: AbortSignal,
  context: Readonly<Record<string, unknown>> = {},
  parent?: TraceSpan,
): Promise<ToolCallRecord[]> {
  const run = { tools, signal, context };
  return Promise.all(calls.map((call) => runOne(call, run, ToolSpan.start(call, parent))));
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
