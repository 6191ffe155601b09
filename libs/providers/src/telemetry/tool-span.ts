import type { ModelToolCall } from '../llm/provider/language-model.interface.js';
import { GEN_AI } from './gen-ai-attributes.js';
import type { TraceSpan } from './tracer.interface.js';
import { activeTracer, recordsContent, startSpan, withSpan } from './tracing.js';

/** Why a tool call never reached the tool's code: the `error.type` of its span. */
export type ToolRejection = 'invalid_arguments' | 'tool_not_found';

/**
 * The `execute_tool {name}` INTERNAL span of one tool call of a tool loop (OpenTelemetry GenAI
 * semantic conventions v1.41.0), child of the loop's `invoke_agent` span. The tool's code runs
 * with it active ({@link ToolSpan.run}), so spans the tool causes (memory, HTTP) nest under it.
 * Arguments and result are recorded only with `recordContent`. `undefined` while tracing is off.
 *
 * @example
 * const span = ToolSpan.start(call, agentSpan);
 * const result = await (span ? span.run(() => tool.execute(args)) : tool.execute(args));
 * span?.succeed(result);
 */
export class ToolSpan {
  private constructor(
    private readonly span: TraceSpan,
    private readonly content: boolean,
  ) {}

  /** Starts the span of `call`; `undefined` while tracing is off or sampled out. */
  static start(call: ModelToolCall, parent: TraceSpan | undefined): ToolSpan | undefined {
    if (activeTracer() === undefined) return undefined;
    const span = startSpan(`execute_tool ${call.name}`, {
      parent,
      attributes: {
        [GEN_AI.OPERATION_NAME]: 'execute_tool',
        [GEN_AI.TOOL_NAME]: call.name,
        [GEN_AI.TOOL_CALL_ID]: call.id,
        [GEN_AI.TOOL_TYPE]: 'function',
      },
    });
    if (!span.recording) return undefined;
    const content = recordsContent();
    if (content) span.setAttributes({ [GEN_AI.TOOL_CALL_ARGUMENTS]: call.arguments });
    return new ToolSpan(span, content);
  }

  /** Notes the tool's description once the tool is known. */
  describe(description: string): void {
    this.span.setAttributes({ [GEN_AI.TOOL_DESCRIPTION]: description });
  }

  /** Runs the tool's code with this span active. */
  run<T>(fn: () => T): T {
    return withSpan(this.span, fn);
  }

  /** Ends a call whose tool returned `result` (serialized as sent back to the model). */
  succeed(result: () => string): void {
    if (this.content) this.span.setAttributes({ [GEN_AI.TOOL_CALL_RESULT]: result() });
    this.span.end();
  }

  /** Ends a call the loop refused before running the tool (the model gets `message` back). */
  reject(type: ToolRejection, message: string): void {
    this.span.fail(Object.assign(new Error(message), { code: type }));
    this.span.end();
  }

  /** Ends a call whose tool threw: `error.type` is the error's code or class. */
  fail(error: unknown): void {
    this.span.fail(error);
    this.span.end();
  }
}
