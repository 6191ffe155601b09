import type { ModelTarget } from '../llm/model-target.js';
import type {
  FinishReason,
  ModelMessage,
  TokenUsage,
} from '../llm/provider/language-model.interface.js';
import { GEN_AI, TOOLKIT_AGENT_NAME, TOOLKIT_LLM } from './gen-ai-attributes.js';
import {
  genAiFinishReason,
  inputMessagesJson,
  outputMessagesJson,
  systemInstructionsJson,
} from './gen-ai-messages.js';
import { genAiProviderName } from './gen-ai-target.js';
import type { TraceSpan } from './tracer.interface.js';
import { activeTracer, recordsContent, startSpan } from './tracing.js';

/** How a tool loop ended, as the agent span reports it. */
export interface AgentOutcome {
  /** The model that answered the last step. */
  target: ModelTarget;
  text: string;
  finishReason: FinishReason;
  /** Summed over the steps. */
  usage?: TokenUsage & { costUsd?: number };
  steps: number;
}

/**
 * The `invoke_agent toolkit` INTERNAL span around one tool loop (OpenTelemetry GenAI semantic
 * conventions v1.41.0: in-process agents are INTERNAL, named `invoke_agent {gen_ai.agent.name}`).
 * Its children are the loop's `chat` spans (one per step) and `execute_tool` spans; it carries
 * the summed usage, `toolkit.llm.cost_usd` and `toolkit.llm.steps`. Calls without tools get no
 * agent span. `undefined` while tracing is off; ends once (later calls do nothing).
 *
 * @example
 * const agent = AgentSpan.start(targets[0], system, messages);
 * chatSpanContext.parent = agent?.span;
 */
export class AgentSpan {
  private ended = false;

  private constructor(
    /** The span the loop's `chat` and `execute_tool` spans are started under. */
    readonly span: TraceSpan,
    private readonly content: boolean,
  ) {}

  /** Starts the agent span of a tool loop on `target` (the first model). */
  static start(
    target: ModelTarget,
    system: string | undefined,
    messages: readonly ModelMessage[],
  ): AgentSpan | undefined {
    if (activeTracer() === undefined) return undefined;
    const span = startSpan(`invoke_agent ${TOOLKIT_AGENT_NAME}`, {
      attributes: {
        [GEN_AI.OPERATION_NAME]: 'invoke_agent',
        [GEN_AI.AGENT_NAME]: TOOLKIT_AGENT_NAME,
        [GEN_AI.PROVIDER_NAME]: genAiProviderName(target.resolution.provider),
        [GEN_AI.REQUEST_MODEL]: target.resolution.model,
      },
    });
    if (!span.recording) return undefined;
    const content = recordsContent();
    if (content) {
      span.setAttributes({
        [GEN_AI.SYSTEM_INSTRUCTIONS]: system ? systemInstructionsJson(system) : undefined,
        [GEN_AI.INPUT_MESSAGES]: inputMessagesJson(messages),
      });
    }
    return new AgentSpan(span, content);
  }

  /** Ends the span with what the loop did. */
  succeed(outcome: AgentOutcome): void {
    if (this.ended) return;
    const { usage, finishReason } = outcome;
    this.span.setAttributes({
      [GEN_AI.RESPONSE_MODEL]: outcome.target.resolution.model,
      [GEN_AI.RESPONSE_FINISH_REASONS]: [genAiFinishReason(finishReason)],
      [GEN_AI.USAGE_INPUT_TOKENS]: usage?.inputTokens,
      [GEN_AI.USAGE_OUTPUT_TOKENS]: usage?.outputTokens,
      [TOOLKIT_LLM.COST_USD]: usage?.costUsd,
      [TOOLKIT_LLM.STEPS]: outcome.steps,
      [GEN_AI.OUTPUT_MESSAGES]: this.content
        ? outputMessagesJson(outcome.text, [], finishReason)
        : undefined,
    });
    this.close();
  }

  /** Ends the span of a loop that failed. */
  fail(error: unknown): void {
    if (this.ended) return;
    this.span.fail(error);
    this.close();
  }

  /** Ends the span of a streamed loop whose consumer stopped reading (not an error). */
  abandon(): void {
    if (this.ended) return;
    this.span.setAttributes({ [TOOLKIT_LLM.STREAM_ABANDONED]: true });
    this.close();
  }

  private close(): void {
    this.ended = true;
    this.span.end();
  }
}

/**
 * Relays a streamed tool loop's events and ends `agent` if the stream fails or is abandoned
 * (a finished loop ended it already, in its `finish` handler).
 */
export async function* agentEvents<T>(
  events: AsyncIterable<T>,
  agent: AgentSpan,
): AsyncGenerator<T> {
  try {
    yield* events;
  } catch (error) {
    agent.fail(error);
    throw error;
  } finally {
    agent.abandon();
  }
}
