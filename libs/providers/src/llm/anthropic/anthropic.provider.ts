import type Anthropic from '@anthropic-ai/sdk';
import type { ClientOptions } from '@anthropic-ai/sdk';
import { EmbeddingsNotSupportedError } from '../llm.errors.js';
import { usageOf } from '../provider/language-model.interface.js';
import type {
  GenerateResult,
  LanguageModel,
  ModelMessage,
  ModelRequest,
  ModelToolCall,
  ResponseInfo,
  StreamPart,
  TokenUsage,
} from '../provider/language-model.interface.js';
import type { ProviderCallContext } from '../provider/map-upstream-failure.js';
import type { VendorSettings } from '../provider/vendor-settings.interface.js';
import { loadAnthropicSdk } from './anthropic-sdk.js';
import { mapAnthropicError } from './map-anthropic-error.js';
import { mapAnthropicFinishReason } from './map-anthropic-finish-reason.js';

type MessageCreateParamsNonStreaming = Anthropic.Messages.MessageCreateParamsNonStreaming;
type MessageParam = Anthropic.Messages.MessageParam;
type ContentBlockParam = Anthropic.Messages.ContentBlockParam;

/** Parsed tool input; Anthropic wants an object even when the model sent broken JSON. */
function inputOf(json: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(json);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}

/**
 * Toolkit messages in Anthropic shape: tool calls become `tool_use` blocks of the assistant
 * turn, and consecutive tool results one user turn of `tool_result` blocks.
 */
function toAnthropicMessages(messages: readonly ModelMessage[]): MessageParam[] {
  const out: MessageParam[] = [];
  for (const m of messages) {
    if (m.role === 'tool') {
      const block: ContentBlockParam = {
        type: 'tool_result',
        tool_use_id: m.toolCallId,
        content: m.content,
        ...(m.isError ? { is_error: true } : {}),
      };
      const last = out.at(-1);
      if (last?.role === 'user' && Array.isArray(last.content)) last.content.push(block);
      else out.push({ role: 'user', content: [block] });
    } else if (m.role === 'assistant' && m.toolCalls?.length) {
      const blocks: ContentBlockParam[] = m.content ? [{ type: 'text', text: m.content }] : [];
      for (const c of m.toolCalls) {
        blocks.push({ type: 'tool_use', id: c.id, name: c.name, input: inputOf(c.arguments) });
      }
      out.push({ role: 'assistant', content: blocks });
    } else {
      out.push({ role: m.role, content: m.content });
    }
  }
  return out;
}

interface InputUsage {
  input_tokens?: number | null;
  cache_creation_input_tokens?: number | null;
  cache_read_input_tokens?: number | null;
}

/** Prompt tokens including cache writes and reads, which Anthropic reports separately. */
function inputTokens(usage: InputUsage): number {
  return (
    (usage.input_tokens ?? 0) +
    (usage.cache_creation_input_tokens ?? 0) +
    (usage.cache_read_input_tokens ?? 0)
  );
}

/**
 * Anthropic's Messages API through the official `@anthropic-ai/sdk`. The system prompt goes in
 * the `system` field; `temperature` is not sent (deprecated by the API, gone from SDK 1.x).
 */
export class AnthropicChatModel implements LanguageModel {
  private readonly clientOptions: ClientOptions;
  private sdkClient?: Promise<Anthropic>;
  private readonly ctx: ProviderCallContext;

  constructor(settings: VendorSettings) {
    const { resolution } = settings;
    this.ctx = {
      provider: resolution.label,
      model: resolution.model,
      keyVar: resolution.keyVar,
      baseURL: settings.baseURL,
      timeoutMs: settings.timeoutMs,
      secret: settings.apiKey,
    };
    this.clientOptions = {
      apiKey: settings.apiKey,
      baseURL: settings.baseURL ?? undefined,
      timeout: settings.timeoutMs,
      maxRetries: settings.maxRetries,
      fetch: settings.fetch,
      defaultHeaders: settings.headers,
      // Toolkit traces each call itself (one `chat` span, as for every provider); the SDK's own
      // spans would double it. Trace-context propagation stays on.
      openTelemetry: { traces: false },
    };
  }

  /** The SDK client, created (and the SDK imported) on the first call. */
  private client(): Promise<Anthropic> {
    this.sdkClient ??= loadAnthropicSdk().then(
      ({ default: Client }) => new Client(this.clientOptions),
    );
    return this.sdkClient;
  }

  private body(request: ModelRequest): MessageCreateParamsNonStreaming {
    const body: MessageCreateParamsNonStreaming = {
      model: request.model,
      max_tokens: request.maxTokens,
      messages: toAnthropicMessages(request.messages),
    };
    if (request.system) body.system = request.system;
    const tools = [...(request.tools ?? [])];
    let choice = request.toolChoice;
    if (request.responseFormat) {
      // Anthropic's native structured output: one forced tool whose input is the answer.
      const { name, schema } = request.responseFormat;
      tools.push({
        name,
        description: 'Reply with the requested JSON object.',
        parameters: schema,
      });
      choice = { name };
    }
    if (tools.length) {
      body.tools = tools.map((t) => ({
        name: t.name,
        description: t.description,
        input_schema: { type: 'object', ...t.parameters },
      }));
      if (choice && typeof choice === 'object')
        body.tool_choice = { type: 'tool', name: choice.name };
      else if (choice === 'required') body.tool_choice = { type: 'any' };
    }
    // No temperature: the Messages API deprecated it and SDK 1.x no longer has the field.
    return body;
  }

  async generate(request: ModelRequest): Promise<GenerateResult> {
    try {
      const message = await (
        await this.client()
      ).messages.create(this.body(request), {
        signal: request.signal,
      });
      const text = message.content
        .map((block) => (block.type === 'text' ? block.text : ''))
        .join('');
      const toolCalls: ModelToolCall[] = message.content.flatMap((block) =>
        block.type === 'tool_use'
          ? [{ id: block.id, name: block.name, arguments: JSON.stringify(block.input) }]
          : [],
      );
      const response = { id: message.id, model: message.model };
      if (request.responseFormat) {
        const answer = toolCalls.find((c) => c.name === request.responseFormat?.name);
        return {
          text: answer?.arguments ?? text,
          finishReason: 'stop',
          usage: usageOf(inputTokens(message.usage), message.usage.output_tokens),
          response,
        };
      }
      return {
        text,
        ...(toolCalls.length ? { toolCalls } : {}),
        finishReason: mapAnthropicFinishReason(message.stop_reason),
        usage: usageOf(inputTokens(message.usage), message.usage.output_tokens),
        response,
      };
    } catch (error) {
      throw mapAnthropicError(error, this.ctx);
    }
  }

  async *stream(request: ModelRequest): AsyncGenerator<StreamPart> {
    let input = 0;
    let output = 0;
    let sawUsage = false;
    let stopReason: string | null | undefined;
    let response: ResponseInfo | undefined;
    // tool_use blocks stream their input as `input_json_delta` fragments, keyed by block index.
    const calls = new Map<number, ModelToolCall>();
    const answerTool = request.responseFormat?.name;
    try {
      const stream = await (
        await this.client()
      ).messages.create({ ...this.body(request), stream: true }, { signal: request.signal });
      yield { type: 'stream-start' };
      for await (const event of stream) {
        if (event.type === 'message_start') {
          sawUsage = true;
          response = { id: event.message.id, model: event.message.model };
          input = inputTokens(event.message.usage);
          output = event.message.usage.output_tokens;
        } else if (event.type === 'content_block_delta' && event.delta.type === 'text_delta') {
          if (event.delta.text && !answerTool) yield { type: 'text-delta', text: event.delta.text };
        } else if (
          event.type === 'content_block_start' &&
          event.content_block.type === 'tool_use'
        ) {
          const { id, name } = event.content_block;
          calls.set(event.index, { id, name, arguments: '' });
        } else if (
          event.type === 'content_block_delta' &&
          event.delta.type === 'input_json_delta'
        ) {
          const call = calls.get(event.index);
          if (call) call.arguments += event.delta.partial_json;
          // Structured output streams as the forced tool's input.
          if (call && call.name === answerTool && event.delta.partial_json) {
            yield { type: 'text-delta', text: event.delta.partial_json };
          }
        } else if (event.type === 'content_block_stop') {
          const call = calls.get(event.index);
          if (call && call.name !== answerTool) {
            // A tool_use with no input deltas has input {}.
            yield { type: 'tool-call', ...call, arguments: call.arguments || '{}' };
          }
        } else if (event.type === 'message_delta') {
          stopReason = event.delta.stop_reason ?? stopReason;
          // message_delta carries cumulative counts.
          output = event.usage.output_tokens;
          if (event.usage.input_tokens != null) input = inputTokens(event.usage);
        }
      }
    } catch (error) {
      throw mapAnthropicError(error, this.ctx);
    }
    const usage: TokenUsage | undefined = sawUsage ? usageOf(input, output) : undefined;
    const finishReason = answerTool ? 'stop' : mapAnthropicFinishReason(stopReason);
    yield { type: 'finish', finishReason, usage, response };
  }

  embed(): Promise<number[][]> {
    return Promise.reject(new EmbeddingsNotSupportedError(this.ctx));
  }
}
