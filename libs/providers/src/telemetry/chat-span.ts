import type { PriceBook } from '../llm/cost/price-book.js';
import type { ModelTarget } from '../llm/model-target.js';
import type {
  GenerateResult,
  ModelRequest,
  ModelToolCall,
  StreamPart,
} from '../llm/provider/language-model.interface.js';
import { GEN_AI, TOOLKIT_LLM } from './gen-ai-attributes.js';
import {
  genAiFinishReason,
  inputMessagesJson,
  outputMessagesJson,
  systemInstructionsJson,
} from './gen-ai-messages.js';
import { targetAttributes } from './gen-ai-target.js';
import type { SpanAttributes, TraceSpan } from './tracer.interface.js';
import { activeTracer, recordsContent, startSpan, withSpan } from './tracing.js';

type FinishPart = Extract<StreamPart, { type: 'finish' }>;

/** Where a model request's span belongs and how to price it. Internal. */
export interface ChatSpanContext {
  /** The tool loop's `invoke_agent` span; else the active span. */
  parent?: TraceSpan;
  /** Prices `toolkit.llm.cost_usd`; left out when absent or the model's price is unknown. */
  prices?: PriceBook;
}

function requestAttributes(target: ModelTarget, request: ModelRequest, stream: boolean) {
  const { api, reasoning } = target.resolution;
  // Anthropic, reasoning models and echo never get a temperature on the wire.
  const sendsTemperature = api === 'openai' && !reasoning;
  const attributes: SpanAttributes = {
    ...targetAttributes(target),
    [GEN_AI.OPERATION_NAME]: 'chat',
    [GEN_AI.REQUEST_MODEL]: request.model,
    [GEN_AI.REQUEST_MAX_TOKENS]: request.maxTokens,
    [GEN_AI.REQUEST_TEMPERATURE]: sendsTemperature ? request.temperature : undefined,
    [GEN_AI.REQUEST_STREAM]: stream,
    [GEN_AI.OUTPUT_TYPE]: request.responseFormat ? 'json' : undefined,
  };
  return attributes;
}

/**
 * The `chat {model}` CLIENT span of ONE model request (one attempt of one model: a fallback or a
 * tool-loop step gets its own), per the OpenTelemetry GenAI semantic conventions v1.41.0.
 * {@link ChatSpan.start} returns `undefined` while tracing is off, so callers pay one call and
 * `?.` afterwards. Streams record `gen_ai.response.time_to_first_chunk` (seconds from this
 * request to its first text or tool-call part); content attributes only with `recordContent`.
 *
 * @example
 * const span = ChatSpan.start(target, request, false, { parent, prices });
 * try { span?.succeed(await span.run(() => model.generate(request))); } catch (e) { span?.fail(e); throw e; }
 */
export class ChatSpan {
  private readonly startedAt = performance.now();
  private firstChunkAt: number | undefined;
  private text = '';
  private readonly toolCalls: ModelToolCall[] = [];

  private constructor(
    private readonly span: TraceSpan,
    private readonly target: ModelTarget,
    private readonly content: boolean,
    private readonly prices: PriceBook | undefined,
  ) {}

  /** Starts the span of `request` to `target`; `undefined` while tracing is off or sampled out. */
  static start(
    target: ModelTarget,
    request: ModelRequest,
    stream: boolean,
    context: ChatSpanContext = {},
  ): ChatSpan | undefined {
    if (activeTracer() === undefined) return undefined;
    const span = startSpan(`chat ${request.model}`, {
      kind: 'client',
      parent: context.parent,
      attributes: requestAttributes(target, request, stream),
    });
    if (!span.recording) return undefined;
    const content = recordsContent();
    if (content) {
      span.setAttributes({
        [GEN_AI.SYSTEM_INSTRUCTIONS]:
          request.system === undefined ? undefined : systemInstructionsJson(request.system),
        [GEN_AI.INPUT_MESSAGES]: inputMessagesJson(request.messages),
      });
    }
    return new ChatSpan(span, target, content, context.prices);
  }

  /** Runs `fn` (the SDK call) with this span active, so HTTP client spans nest under it. */
  run<T>(fn: () => T): T {
    return withSpan(this.span, fn);
  }

  /** Notes one streamed part: the first chunk's time, content when recorded, the finish. */
  part(part: StreamPart): void {
    if (part.type === 'finish') {
      this.finish(part);
      return;
    }
    if (part.type === 'stream-start' || (part.type === 'text-delta' && part.text === '')) return;
    this.firstChunkAt ??= performance.now();
    if (!this.content) return;
    if (part.type === 'text-delta') this.text += part.text;
    else this.toolCalls.push(part);
  }

  /** Ends a non-streamed request with its answer. */
  succeed(result: GenerateResult): void {
    this.text = result.text;
    this.toolCalls.push(...(result.toolCalls ?? []));
    this.finish(result);
    this.span.end();
  }

  /** Ends a finished stream (its finish part was seen by {@link part}). */
  end(): void {
    this.span.end();
  }

  /** Ends a failed request: status error, `error.type`, exception event. */
  fail(error: unknown): void {
    this.span.fail(error);
    this.span.end();
  }

  /** Ends a stream whose consumer stopped reading early: not an error, marked abandoned. */
  abandon(): void {
    this.span.setAttributes({ [TOOLKIT_LLM.STREAM_ABANDONED]: true });
    this.span.end();
  }

  private finish(part: Pick<FinishPart, 'finishReason' | 'usage' | 'response'>): void {
    const { usage, response } = part;
    const { provider, model } = this.target.resolution;
    const cost = usage && this.prices?.costOf(provider, model, usage);
    this.span.setAttributes({
      [GEN_AI.RESPONSE_ID]: response?.id,
      [GEN_AI.RESPONSE_MODEL]: response?.model,
      [GEN_AI.RESPONSE_FINISH_REASONS]: [genAiFinishReason(part.finishReason)],
      [GEN_AI.USAGE_INPUT_TOKENS]: usage?.inputTokens,
      [GEN_AI.USAGE_OUTPUT_TOKENS]: usage?.outputTokens,
      [TOOLKIT_LLM.COST_USD]: cost,
      [GEN_AI.RESPONSE_TIME_TO_FIRST_CHUNK]:
        this.firstChunkAt === undefined ? undefined : (this.firstChunkAt - this.startedAt) / 1000,
      [GEN_AI.OUTPUT_MESSAGES]: this.content
        ? outputMessagesJson(this.text, this.toolCalls, part.finishReason)
        : undefined,
    });
  }
}
