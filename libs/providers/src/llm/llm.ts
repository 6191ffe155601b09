import { ValidationError } from '../errors/validation.error.js';
import type {
  CallOptions,
  ChatInput,
  ChatModel,
  ChatOptions,
  StreamingChatOptions,
  TextChatOptions,
} from './chat-model.interface.js';
import { buildConversation } from './conversation.js';
import type { Conversation } from './conversation.js';
import { generateWithFallback } from './generate-session.js';
import type { LlmOptions, ModelSpec } from './llm-options.interface.js';
import { callParams, resolveLlmOptions } from './llm-options.js';
import type { CallParams, ResolvedLlmOptions } from './llm-options.js';
import type { LlmSettingsInput } from './llm-settings.js';
import { llmOptionsFromSettings } from './llm-settings.js';
import { buildEmbeddingTarget, buildTargets } from './model-target.js';
import type { ModelTarget } from './model-target.js';
import type {
  FinishReason,
  ModelRequest,
  TokenUsage,
} from './provider/language-model.interface.js';
import { resolveModel } from './resolution/resolve-model.js';
import { compiledSchemaOf } from './tools/tool.js';
import type { SchemaOutput } from './tools/tool.js';
import { compileSchema } from './tools/schema-validator.js';
import type { CompiledSchema, SchemaInput } from './tools/schema-validator.js';
import { ConfigError } from '../errors/config.error.js';
import { runObjectLoop } from './structured/object-loop.js';
import { checkReply, jsonInstruction, jsonText } from './structured/object-reply.js';
import { parsePartialJson } from './structured/partial-json.js';
import { StructuredOutputError } from './structured/structured-output.error.js';
import { sumUsage } from './tools/tool-loop.js';
import { PromptLibrary } from './prompts/prompt-library.js';
import { SpendLedger } from './cost/spend-ledger.js';
import type { MemoryStore } from '../memory/memory-store.interface.js';
import type {
  GenerateObjectOptions,
  GenerateObjectResponse,
  PartialObject,
} from './structured/generate-object-options.js';
import type { ModelResolution, ResolveModelOptions } from './resolution/resolve-model.js';
import type { ProviderName } from './resolution/providers.table.js';
import { openPartStream, openStream } from './stream-session.js';
import type { ContentPart, FinishPart } from './stream-session.js';
import { PriceBook } from './cost/price-book.js';
import type { LlmStreamEvent } from './tools/llm-stream-event.js';
import type { GenerateStep } from './tools/tool-call-record.js';
import { runToolLoop, streamToolLoop, toolSetOf } from './tools/tool-loop.js';
import type { OpenedStep, ToolLoopCall, ToolLoopResult } from './tools/tool-loop.js';
import type { ModelMessage } from './provider/language-model.interface.js';
import { AgentSpan, agentEvents } from '../telemetry/agent-span.js';
import type { ChatSpanContext } from '../telemetry/chat-span.js';
import { tracedEmbeddings } from '../telemetry/embeddings-span.js';

/** The answer of `generate()`: text plus what it cost, why it stopped and the tool-loop steps. */
export interface GenerateResponse {
  /** The generated text (of the last step). */
  text: string;
  /** Why generation stopped (`stop`, `length`, `max-steps`, ...). */
  finishReason: FinishReason;
  /** Token usage summed over the steps, when the provider reported it, with `costUsd` when known. */
  usage?: TokenUsage & { costUsd?: number };
  /** Every model call, with the tool calls it asked for (one step when no tool was called). */
  steps: GenerateStep[];
  /** Provider and model that answered (after any fallback). */
  provider: ProviderName;
  /** Model that answered. */
  model: string;
}

/**
 * One interface over every provider: `new LLM('gpt-4o-mini')`, `new LLM('claude-3-5-haiku-latest')`,
 * `new LLM('ollama/llama3')` or the offline `new LLM('echo')`; the provider is detected from the
 * name (see `LLM.resolve`). Give a list for fallbacks: the next model is tried on 429, 5xx or a
 * timeout before the first token. Injectable in Nest by its class.
 *
 * @example
 * const llm = new LLM(['gpt-4o-mini', 'claude-3-5-haiku-latest'], { temperature: 0.2 });
 * const answer = await llm.chat('Hello', { history, system: 'Be brief.' });
 * for await (const chunk of await llm.chat('Tell me a story', { stream: true, signal })) write(chunk);
 */
export class LLM implements ChatModel {
  /** The first model's name, as given (`auto` replaced by the model it picked). */
  readonly model: string;
  /** Every model name, first to last fallback. */
  readonly models: readonly string[];
  /** The first model's provider. */
  readonly provider: ProviderName;
  private readonly targets: readonly ModelTarget[];
  private readonly options: ResolvedLlmOptions;
  private embedder: ModelTarget | undefined;
  private readonly prices: PriceBook;
  private promptLibrary: PromptLibrary | undefined;
  private readonly ledger: SpendLedger | undefined;
  private lastSpend: Promise<void> = Promise.resolve();
  /** Chat spans of calls without tools: under the active span, priced by the price book. */
  private readonly trace: ChatSpanContext;

  /**
   * @param model - A model name, `auto`, or a fallback list (names or `{ model, apiKey, baseURL }`).
   * @default model "auto": the first provider whose key is set, else `echo`
   */
  constructor(model: ModelSpec | readonly ModelSpec[] = 'auto', options: LlmOptions = {}) {
    this.options = resolveLlmOptions(options);
    const specs = (Array.isArray(model) ? model : [model]) as readonly ModelSpec[];
    this.targets = buildTargets(specs, this.options);
    this.models = this.targets.map((t) => t.resolution.name);
    this.model = this.models[0];
    this.provider = this.targets[0].resolution.provider;
    this.prices = new PriceBook(this.options.prices);
    this.trace = { prices: this.prices };
    const budget = this.options.budget;
    this.ledger = budget ? new SpendLedger(budget.store, budget.perUserUsdPerDay) : undefined;
  }

  /**
   * Builds the injectable `LLM` from `toolkit.yaml`'s `llm.*` section (`default_model: auto`
   * picks the first provider whose key is set, else `echo`). `store` keeps the per-user spend
   * of `llm.budget.per_user_usd_per_day`.
   *
   * @example
   * const llm = LLM.fromConfig(config.llm);
   */
  static fromConfig(
    settings: LlmSettingsInput,
    env: Record<string, string | undefined> = process.env,
    store?: MemoryStore,
  ): LLM {
    const { model, options } = llmOptionsFromSettings(settings, env, store);
    return new LLM(model, options);
  }

  /**
   * Explains what a model name resolves to: provider, the rule that matched, the key variable
   * it needs and the base URL it calls. Unknown names throw `UnknownModelError`.
   *
   * @example
   * LLM.resolve('claude-3-5-haiku-latest');
   * // { provider: 'anthropic', rule: 'claude-*', keyVar: 'ANTHROPIC_API_KEY', ... }
   */
  static resolve(name: string, options: ResolveModelOptions = {}): ModelResolution {
    return resolveModel(name, options);
  }

  /**
   * Streams the answer to `message` given `history` (oldest first) and an optional `system`
   * prompt: resolves, once the first chunk arrived, to the answer's text chunks.
   */
  chat(message: ChatInput, options: StreamingChatOptions): Promise<AsyncIterable<string>>;
  /** Answers `message` given `history` (oldest first) and an optional `system` prompt. */
  chat(message: ChatInput, options?: TextChatOptions): Promise<string>;
  /** Answers `message` with one string, or with its text chunks when `stream: true`. */
  chat(message: ChatInput, options?: ChatOptions): Promise<string | AsyncIterable<string>>;
  async chat(
    message: ChatInput,
    options: ChatOptions = {},
  ): Promise<string | AsyncIterable<string>> {
    const conversation = buildConversation(message, options);
    if (options.stream) return this.streamConversation(conversation, options);
    return (await this.generateConversation(conversation, options)).text;
  }

  /** Answers a single prompt. */
  async complete(prompt: string, options: CallOptions = {}): Promise<string> {
    return (await this.generate(prompt, options)).text;
  }

  /** Streams the answer to a single prompt as text chunks. */
  async *stream(prompt: string, options: CallOptions = {}): AsyncGenerator<string> {
    yield* await this.streamConversation(buildConversation(prompt, options), options);
  }

  /**
   * Streams typed events: `text-delta` chunks, `tool-call` and `tool-result` around each tool the
   * model calls, then `finish`. Each event is a Nest `MessageEvent`, so a `@Stream()` route
   * returning this relays them as SSE events of their own type. Resolves once the first event
   * is ready (failures to start reject here).
   *
   * @example
   * return llm.streamEvents(message, { tools: [calculator], signal });
   */
  streamEvents(
    message: ChatInput,
    options: Omit<ChatOptions, 'stream'> = {},
  ): Promise<AsyncIterable<LlmStreamEvent>> {
    return this.streamConversationEvents(buildConversation(message, options), options);
  }

  /**
   * Like `chat()` without streaming, but returns the usage (with cost), finish reason and the
   * tool-loop steps with the text.
   */
  generate(
    message: ChatInput,
    options: Omit<ChatOptions, 'stream'> = {},
  ): Promise<GenerateResponse> {
    return this.generateConversation(buildConversation(message, options), options);
  }

  /**
   * Asks for a JSON object valid against `schema` — a JSON Schema (typed when written `as
   * const`) or a Standard Schema such as zod (typed by it) — using the provider's native JSON
   * mode (OpenAI structured outputs, JSON mode for compatible hosts, a forced tool for
   * Anthropic). An invalid reply is sent back with the validation problem and retried
   * (`maxRetries`, default 2); then it fails with `StructuredOutputError` (502 naming the path).
   *
   * @example
   * const { object } = await llm.generateObject('Extract the city: "I live in Paris"', {
   *   schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } as const,
   * });
   * object.city; // string
   */
  async generateObject<const S extends SchemaInput>(
    prompt: ChatInput,
    options: GenerateObjectOptions<S>,
  ): Promise<GenerateObjectResponse<SchemaOutput<S>>> {
    const { schema, conversation, params, maxRetries } = this.objectCall(prompt, options);
    const startedAt = performance.now();
    await this.checkBudget(options);
    let target = this.targets[0];
    const result = await runObjectLoop(conversation.messages, schema, maxRetries, async (m) => {
      const call = await generateWithFallback({
        targets: this.targets,
        request: this.objectRequest(
          { system: conversation.system, messages: m },
          params,
          schema,
          options,
        ),
        signal: options.signal,
        trace: this.trace,
      });
      target = call.target;
      return call.result;
    });
    const usages = sumUsage(result.usages);
    const usage = this.report(target, usages, 'stop', options, startedAt, result.attempts);
    await this.lastSpend;
    return {
      object: result.value as SchemaOutput<S>,
      attempts: result.attempts,
      ...(usage ? { usage } : {}),
      provider: target.resolution.provider,
      model: target.resolution.model,
    };
  }

  /**
   * Streams the object of `generateObject()` as it is written: yields partial objects (open
   * strings, arrays and objects closed), then the whole object once it validates; an invalid
   * final object throws `StructuredOutputError` (no retries while streaming).
   *
   * @example
   * for await (const partial of await llm.streamObject(prompt, { schema })) render(partial);
   */
  async streamObject<const S extends SchemaInput>(
    prompt: ChatInput,
    options: Omit<GenerateObjectOptions<S>, 'maxRetries'>,
  ): Promise<AsyncIterable<PartialObject<SchemaOutput<S>>>> {
    const { schema, conversation, params } = this.objectCall(prompt, options);
    const startedAt = performance.now();
    await this.checkBudget(options);
    const parts = await openPartStream({
      targets: this.targets,
      request: this.objectRequest(conversation, params, schema, options),
      signal: options.signal,
      onFinish: (target, finish, firstAt) =>
        this.report(target, finish.usage, 'stop', options, startedAt, 1, firstAt),
      trace: this.trace,
    });
    return this.settled(partialObjects(parts, schema)) as AsyncIterable<
      PartialObject<SchemaOutput<S>>
    >;
  }

  private objectCall(prompt: ChatInput, options: GenerateObjectOptions<SchemaInput>) {
    let schema: CompiledSchema;
    try {
      schema = compileSchema(options.schema);
    } catch (error) {
      throw new ConfigError('schema', (error as Error).message, 'generateObject()');
    }
    const maxRetries = options.maxRetries ?? 2;
    if (!Number.isInteger(maxRetries) || maxRetries < 0) {
      throw new ValidationError([{ param: 'maxRetries', problem: 'must be an integer >= 0' }]);
    }
    const system = [options.system, jsonInstruction(schema)].filter(Boolean).join('\n\n');
    const conversation = buildConversation(prompt, { ...options, system });
    return { schema, conversation, params: callParams(options, this.options), maxRetries };
  }

  private objectRequest(
    conversation: Conversation,
    params: CallParams,
    schema: CompiledSchema,
    options: { schemaName?: string },
  ) {
    const request = this.requestFor(conversation, params);
    const name = options.schemaName ?? 'answer';
    return (target: ModelTarget, signal: AbortSignal): ModelRequest => ({
      ...request(target, signal),
      responseFormat: { type: 'json', name, schema: schema.jsonSchema },
    });
  }

  /**
   * Renders the prompt file `prompts/<name>.hbs` with `vars` (handlebars, strict: a variable
   * the template uses but `vars` lacks throws `PromptError` naming it) and sends it as the user
   * message. Files are read once, on first use (`reloadPrompts()` reads them again; `toolkit
   * dev` restarts the app when one changes). The folder is the `promptsDir` option.
   *
   * @example
   * const summary = await llm.prompt('summarize', { text }, { maxTokens: 200 });
   */
  async prompt(
    name: string,
    vars: Record<string, unknown> = {},
    options: Omit<ChatOptions, 'stream'> = {},
  ): Promise<string> {
    const message = this.renderPrompt(name, vars);
    return this.chat(message, { ...options, stream: false });
  }

  /** The text of the prompt file `name` filled in with `vars`, without calling the model. */
  renderPrompt(name: string, vars: Record<string, unknown> = {}): string {
    this.promptLibrary ??= new PromptLibrary(this.options.promptsDir);
    return this.promptLibrary.render(name, vars);
  }

  /** Reads the prompt files again on their next use (after editing them in a running process). */
  reloadPrompts(): void {
    this.promptLibrary?.reload();
  }

  /** Embeds one text with the `embeddingModel`. */
  embed(text: string): Promise<number[]>;
  /** Embeds several texts, one vector per text in order (batched by `embedBatchSize`). */
  embed(texts: readonly string[]): Promise<number[][]>;
  async embed(input: string | readonly string[]): Promise<number[] | number[][]> {
    const list: readonly unknown[] | undefined =
      typeof input === 'string' ? [input] : Array.isArray(input) ? (input as unknown[]) : undefined;
    const texts = list?.every((t): t is string => typeof t === 'string')
      ? (list as string[])
      : undefined;
    if (!texts) {
      throw new ValidationError([
        { param: 'text', problem: 'must be a string or an array of strings' },
      ]);
    }
    if (texts.length === 0) return [];
    const embedder = (this.embedder ??= buildEmbeddingTarget(this.targets[0], this.options));
    const vectors = await tracedEmbeddings(embedder, (onUsage) =>
      embedder.languageModel().embed([...texts], undefined, onUsage),
    );
    return typeof input === 'string' ? vectors[0] : vectors;
  }

  private requestFor(conversation: Conversation, params: CallParams, loop?: ToolLoopCall) {
    const tools = loop && loop.tools.size > 0 ? [...loop.tools.values()] : undefined;
    const specs = tools?.map((t) => ({
      name: t.name,
      description: t.description,
      parameters: compiledSchemaOf(t).jsonSchema,
    }));
    return (target: ModelTarget, signal: AbortSignal): ModelRequest => ({
      ...conversation,
      model: target.resolution.model,
      temperature: params.temperature,
      maxTokens: params.maxTokens,
      ...(specs ? { tools: specs } : {}),
      signal,
    });
  }

  private loopCall(conversation: Conversation, options: CallOptions): ToolLoopCall {
    const { tools, maxSteps } = toolSetOf(options.tools, options.maxSteps);
    const signal = options.signal ?? new AbortController().signal;
    const context = options.toolContext ?? {};
    return { messages: conversation.messages, tools, maxSteps, signal, context };
  }

  /** The `invoke_agent` span of a call that runs a tool loop (none without tools or tracing). */
  private agentSpan(conversation: Conversation, loop: ToolLoopCall): AgentSpan | undefined {
    if (loop.tools.size === 0) return undefined;
    const agent = AgentSpan.start(this.targets[0], conversation.system, conversation.messages);
    loop.span = agent?.span;
    return agent;
  }

  /** Where the chat spans of a call go: under its agent span, if any, priced by the price book. */
  private traceOf(agent: AgentSpan | undefined): ChatSpanContext {
    return agent ? { parent: agent.span, prices: this.prices } : this.trace;
  }

  private async checkBudget(options: CallOptions): Promise<void> {
    if (this.ledger && options.userId !== undefined) await this.ledger.check(options.userId);
  }

  private report(
    target: ModelTarget,
    usage: TokenUsage | undefined,
    finishReason: FinishReason,
    options: CallOptions,
    startedAt: number,
    steps = 1,
    firstContentAt?: number,
  ): (TokenUsage & { costUsd?: number }) | undefined {
    if (!usage) return undefined;
    const { provider, model } = target.resolution;
    const costUsd = this.prices.costOf(provider, model, usage);
    const priced = costUsd === undefined ? { ...usage } : { ...usage, costUsd };
    const durationMs = performance.now() - startedAt;
    const ttft =
      firstContentAt === undefined ? {} : { timeToFirstTokenMs: firstContentAt - startedAt };
    const user = options.userId === undefined ? {} : { userId: options.userId };
    const report = {
      ...priced,
      provider,
      model,
      finishReason,
      steps,
      durationMs,
      ...ttft,
      ...user,
    };
    if (this.ledger && options.userId !== undefined && costUsd !== undefined) {
      // A failed write must not fail an answered call; the next check reads what was stored.
      this.lastSpend = this.ledger.record(options.userId, costUsd).catch(() => undefined);
    }
    options.onUsage?.(report);
    this.options.onUsage?.(report);
    return priced;
  }

  private reportLoop(
    target: ModelTarget,
    result: ToolLoopResult,
    options: CallOptions,
    startedAt: number,
    agent: AgentSpan | undefined,
    firstContentAt?: number,
  ) {
    const { usage, finishReason, steps, text } = result;
    const n = steps.length;
    const priced = this.report(target, usage, finishReason, options, startedAt, n, firstContentAt);
    agent?.succeed({ target, text, finishReason, usage: priced, steps: n });
    return priced;
  }

  private async generateConversation(
    conversation: Conversation,
    options: CallOptions,
  ): Promise<GenerateResponse> {
    const loop = this.loopCall(conversation, options);
    const params = callParams(options, this.options);
    const startedAt = performance.now();
    await this.checkBudget(options);
    let target = this.targets[0];
    const agent = this.agentSpan(conversation, loop);
    const trace = this.traceOf(agent);
    const result = await runToolLoop(loop, async (messages) => {
      const call = await generateWithFallback({
        targets: this.targets,
        request: this.requestFor({ system: conversation.system, messages }, params, loop),
        signal: options.signal,
        trace,
      });
      target = call.target;
      return call.result;
    }).catch((error: unknown) => {
      agent?.fail(error);
      throw error;
    });
    const usage = this.reportLoop(target, result, options, startedAt, agent);
    await this.lastSpend;
    return {
      text: result.text,
      finishReason: result.finishReason,
      ...(usage ? { usage } : {}),
      steps: result.steps,
      provider: target.resolution.provider,
      model: target.resolution.model,
    };
  }

  private async openStep(
    conversation: Conversation,
    params: CallParams,
    loop: ToolLoopCall,
    options: CallOptions,
    trace: ChatSpanContext,
  ): Promise<{ step: OpenedStep; target: () => ModelTarget; firstAt: () => number | undefined }> {
    let finish: FinishPart | undefined;
    let target = this.targets[0];
    let firstContentAt: number | undefined;
    const parts = await openPartStream({
      targets: this.targets,
      request: this.requestFor(conversation, params, loop),
      signal: options.signal,
      onFinish: (t, part, firstAt) => {
        target = t;
        finish = part;
        firstContentAt = firstAt;
      },
      trace,
    });
    const step = { parts, finish: () => finish };
    return { step, target: () => target, firstAt: () => firstContentAt };
  }

  private async streamConversationEvents(
    conversation: Conversation,
    options: CallOptions,
  ): Promise<AsyncIterable<LlmStreamEvent>> {
    const loop = this.loopCall(conversation, options);
    const params = callParams(options, this.options);
    const startedAt = performance.now();
    await this.checkBudget(options);
    const agent = this.agentSpan(conversation, loop);
    const trace = this.traceOf(agent);
    const open = (messages: ModelMessage[]) =>
      this.openStep({ system: conversation.system, messages }, params, loop, options, trace);
    const first = await open(conversation.messages).catch((error: unknown) => {
      agent?.fail(error);
      throw error;
    });
    let last = first;
    const next = async (messages: ModelMessage[]): Promise<OpenedStep> => {
      last = await open(messages);
      return last.step;
    };
    const events = streamToolLoop(loop, first.step, next, (result) => {
      const target = last.target();
      const usage = this.reportLoop(target, result, options, startedAt, agent, first.firstAt());
      const { finishReason } = result;
      return {
        type: 'finish',
        data: { finishReason, steps: result.steps.length, ...(usage ? { usage } : {}) },
      };
    });
    return this.settled(agent ? agentEvents(events, agent) : events);
  }

  private async streamConversation(
    conversation: Conversation,
    options: CallOptions,
  ): Promise<AsyncIterable<string>> {
    if (options.tools?.length) {
      return textDeltas(await this.streamConversationEvents(conversation, options));
    }
    const startedAt = performance.now();
    await this.checkBudget(options);
    const chunks = await openStream({
      targets: this.targets,
      request: this.requestFor(conversation, callParams(options, this.options)),
      signal: options.signal,
      onFinish: (target, finish, firstAt) =>
        this.report(target, finish.usage, finish.finishReason, options, startedAt, 1, firstAt),
      trace: this.trace,
    });
    return this.settled(chunks);
  }

  /** Relays a stream, then waits for its spend to be recorded before ending. */
  private async *settled<T>(items: AsyncIterable<T>): AsyncGenerator<T> {
    yield* items;
    await this.lastSpend;
  }
}

async function* textDeltas(events: AsyncIterable<LlmStreamEvent>): AsyncGenerator<string> {
  for await (const event of events) if (event.type === 'text-delta') yield event.data;
}

async function* partialObjects(
  parts: AsyncIterable<ContentPart>,
  schema: CompiledSchema,
): AsyncGenerator<unknown> {
  let text = '';
  let last = '';
  for await (const part of parts) {
    if (part.type !== 'text-delta') continue;
    text += part.text;
    const partial = parsePartialJson(jsonText(text).replace(/^```(?:json)?\s*/i, ''));
    if (typeof partial !== 'object' || partial === null) continue;
    const seen = JSON.stringify(partial);
    if (seen === last) continue;
    last = seen;
    yield partial;
  }
  const checked = await checkReply(text, schema);
  if (!checked.ok) throw new StructuredOutputError(checked.problem, 1);
  if (JSON.stringify(checked.value) !== last) yield checked.value;
}
