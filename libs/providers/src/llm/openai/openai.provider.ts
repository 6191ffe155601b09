import type OpenAI from 'openai';
import type { ClientOptions } from 'openai';
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
import { batches } from '../provider/vendor-settings.interface.js';
import type { VendorSettings } from '../provider/vendor-settings.interface.js';
import { providerInfo } from '../resolution/providers.table.js';
import type { ProviderInfo } from '../resolution/providers.table.js';
import { mapOpenAIError } from './map-openai-error.js';
import { mapOpenAIFinishReason } from './map-openai-finish-reason.js';
import { loadOpenAISdk } from './openai-sdk.js';

type ChatCompletionCreateParamsNonStreaming =
  OpenAI.Chat.Completions.ChatCompletionCreateParamsNonStreaming;
type ChatCompletionMessageParam = OpenAI.Chat.Completions.ChatCompletionMessageParam;
type CompletionUsage = OpenAI.CompletionUsage;

type ChatCompletionMessageToolCall = OpenAI.Chat.Completions.ChatCompletionMessageToolCall;

/** One toolkit message in OpenAI shape (tool results are `tool` messages). */
function toOpenAIMessage(m: ModelMessage): ChatCompletionMessageParam {
  if (m.role === 'tool') return { role: 'tool', tool_call_id: m.toolCallId, content: m.content };
  if (m.role === 'assistant' && m.toolCalls?.length) {
    return {
      role: 'assistant',
      content: m.content === '' ? null : m.content,
      tool_calls: m.toolCalls.map((c) => ({
        id: c.id,
        type: 'function',
        function: { name: c.name, arguments: c.arguments },
      })),
    };
  }
  return { role: m.role, content: m.content };
}

function fromOpenAIToolCalls(
  calls: readonly ChatCompletionMessageToolCall[] | undefined,
): ModelToolCall[] | undefined {
  const fns = (calls ?? []).flatMap((c) => (c.type === 'function' ? [c] : []));
  if (fns.length === 0) return undefined;
  return fns.map((c) => ({ id: c.id, name: c.function.name, arguments: c.function.arguments }));
}

function toUsage(usage: CompletionUsage | null | undefined): TokenUsage | undefined {
  return usage ? usageOf(usage.prompt_tokens, usage.completion_tokens) : undefined;
}

/**
 * OpenAI chat completions through the official `openai` SDK; also serves every
 * OpenAI-compatible family (Gemini, Mistral, DeepSeek, Grok, Ollama) with its own base URL.
 */
export class OpenAIChatModel implements LanguageModel {
  private readonly clientOptions: ClientOptions;
  private sdkClient?: Promise<OpenAI>;
  private readonly info: ProviderInfo;
  private readonly ctx: ProviderCallContext;

  constructor(private readonly settings: VendorSettings) {
    const { resolution } = settings;
    this.info = providerInfo(resolution.provider);
    this.ctx = {
      provider: resolution.label,
      model: resolution.model,
      keyVar: resolution.keyVar,
      baseURL: settings.baseURL,
      timeoutMs: settings.timeoutMs,
      secret: settings.apiKey,
    };
    const isOpenAI = resolution.provider === 'openai';
    this.clientOptions = {
      // Ollama needs no key, but the SDK insists on one.
      apiKey: settings.apiKey ?? 'no-key-needed',
      baseURL: settings.baseURL ?? undefined,
      timeout: settings.timeoutMs,
      maxRetries: settings.maxRetries,
      fetch: settings.fetch,
      defaultHeaders: settings.headers,
      // OPENAI_ORG_ID / OPENAI_PROJECT_ID belong to OpenAI only, never to compatible hosts.
      ...(isOpenAI ? {} : { organization: null, project: null }),
    };
  }

  /** The SDK client, created (and the SDK imported) on the first call. */
  private client(): Promise<OpenAI> {
    this.sdkClient ??= loadOpenAISdk().then(
      ({ default: Client }) => new Client(this.clientOptions),
    );
    return this.sdkClient;
  }

  private body(request: ModelRequest): ChatCompletionCreateParamsNonStreaming {
    const turns = request.messages.map(toOpenAIMessage);
    const messages: ChatCompletionMessageParam[] = request.system
      ? [{ role: 'system', content: request.system }, ...turns]
      : turns;
    const body: ChatCompletionCreateParamsNonStreaming = { model: request.model, messages };
    if (request.tools?.length) {
      body.tools = request.tools.map((t) => ({
        type: 'function',
        function: { name: t.name, description: t.description, parameters: t.parameters },
      }));
      const choice = request.toolChoice;
      if (choice && typeof choice === 'object') {
        body.tool_choice = { type: 'function', function: { name: choice.name } };
      } else if (choice) body.tool_choice = choice;
    }
    if (request.responseFormat) {
      const { name, schema } = request.responseFormat;
      // Structured outputs are OpenAI's; compatible hosts get plain JSON mode.
      body.response_format =
        this.settings.resolution.provider === 'openai'
          ? { type: 'json_schema', json_schema: { name, schema, strict: false } }
          : { type: 'json_object' };
    }
    if (request.temperature !== undefined && !this.settings.resolution.reasoning) {
      body.temperature = request.temperature;
    }
    if (this.info.tokenLimitParam === 'max_completion_tokens') {
      body.max_completion_tokens = request.maxTokens;
    } else {
      body.max_tokens = request.maxTokens;
    }
    return body;
  }

  async generate(request: ModelRequest): Promise<GenerateResult> {
    try {
      const completion = await (
        await this.client()
      ).chat.completions.create(this.body(request), {
        signal: request.signal,
      });
      const choice = completion.choices[0];
      return {
        text: choice?.message.content ?? '',
        toolCalls: fromOpenAIToolCalls(choice?.message.tool_calls),
        finishReason: mapOpenAIFinishReason(choice?.finish_reason),
        usage: toUsage(completion.usage),
        response: { id: completion.id, model: completion.model },
      };
    } catch (error) {
      throw mapOpenAIError(error, this.ctx);
    }
  }

  async *stream(request: ModelRequest): AsyncGenerator<StreamPart> {
    const body = {
      ...this.body(request),
      stream: true as const,
      ...(this.info.streamUsage ? { stream_options: { include_usage: true } } : {}),
    };
    let finishReason: string | null | undefined;
    let usage: TokenUsage | undefined;
    let response: ResponseInfo | undefined;
    // Tool calls arrive as indexed deltas: id and name first, then argument fragments.
    const calls = new Map<number, ModelToolCall>();
    try {
      const stream = await (
        await this.client()
      ).chat.completions.create(body, { signal: request.signal });
      yield { type: 'stream-start' };
      for await (const chunk of stream) {
        // The usage chunk comes last, with an empty `choices`.
        usage = toUsage(chunk.usage) ?? usage;
        response ??= { id: chunk.id, model: chunk.model };
        const choice = chunk.choices[0];
        if (choice?.delta?.content) yield { type: 'text-delta', text: choice.delta.content };
        for (const delta of choice?.delta?.tool_calls ?? []) {
          const call = calls.get(delta.index) ?? { id: '', name: '', arguments: '' };
          if (delta.id) call.id = delta.id;
          if (delta.function?.name) call.name += delta.function.name;
          if (delta.function?.arguments) call.arguments += delta.function.arguments;
          calls.set(delta.index, call);
        }
        if (choice?.finish_reason) finishReason = choice.finish_reason;
      }
    } catch (error) {
      throw mapOpenAIError(error, this.ctx);
    }
    for (const [index, call] of [...calls].sort((a, b) => a[0] - b[0])) {
      yield { type: 'tool-call', ...call, id: call.id || `call_${index}` };
    }
    yield { type: 'finish', finishReason: mapOpenAIFinishReason(finishReason), usage, response };
  }

  async embed(
    texts: string[],
    signal?: AbortSignal,
    onUsage?: (inputTokens: number) => void,
  ): Promise<number[][]> {
    const model = this.settings.embeddingModel;
    if (!model) throw new EmbeddingsNotSupportedError(this.ctx);
    const vectors: number[][] = [];
    try {
      for (const batch of batches(texts, this.settings.embedBatchSize)) {
        const response = await (
          await this.client()
        ).embeddings.create({ model, input: batch, encoding_format: 'float' }, { signal });
        if (response.usage) onUsage?.(response.usage.prompt_tokens);
        const ordered = [...response.data].sort((a, b) => a.index - b.index);
        vectors.push(...ordered.map((d) => d.embedding));
      }
    } catch (error) {
      throw mapOpenAIError(error, { ...this.ctx, model });
    }
    return vectors;
  }
}
