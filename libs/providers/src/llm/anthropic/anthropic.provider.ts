import type Anthropic from '@anthropic-ai/sdk';
import type { ClientOptions } from '@anthropic-ai/sdk';
import { EmbeddingsNotSupportedError } from '../llm.errors.js';
import { usageOf } from '../provider/language-model.interface.js';
import type {
  GenerateResult,
  LanguageModel,
  ModelRequest,
  StreamPart,
  TokenUsage,
} from '../provider/language-model.interface.js';
import type { ProviderCallContext } from '../provider/map-upstream-failure.js';
import type { VendorSettings } from '../provider/vendor-settings.interface.js';
import { loadAnthropicSdk } from './anthropic-sdk.js';
import { mapAnthropicError } from './map-anthropic-error.js';
import { mapAnthropicFinishReason } from './map-anthropic-finish-reason.js';

type MessageCreateParamsNonStreaming = Anthropic.Messages.MessageCreateParamsNonStreaming;

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
      messages: request.messages.map((m) => ({ role: m.role, content: m.content })),
    };
    if (request.system) body.system = request.system;
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
      return {
        text,
        finishReason: mapAnthropicFinishReason(message.stop_reason),
        usage: usageOf(inputTokens(message.usage), message.usage.output_tokens),
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
    try {
      const stream = await (
        await this.client()
      ).messages.create({ ...this.body(request), stream: true }, { signal: request.signal });
      yield { type: 'stream-start' };
      for await (const event of stream) {
        if (event.type === 'message_start') {
          sawUsage = true;
          input = inputTokens(event.message.usage);
          output = event.message.usage.output_tokens;
        } else if (event.type === 'content_block_delta' && event.delta.type === 'text_delta') {
          if (event.delta.text) yield { type: 'text-delta', text: event.delta.text };
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
    yield { type: 'finish', finishReason: mapAnthropicFinishReason(stopReason), usage };
  }

  embed(): Promise<number[][]> {
    return Promise.reject(new EmbeddingsNotSupportedError(this.ctx));
  }
}
