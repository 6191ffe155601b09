import type {
  CallOptions,
  ChatInput,
  ChatModel,
  ChatOptions,
  StreamingChatOptions,
  TextChatOptions,
  GenerateResponse,
  GenerateObjectOptions,
  GenerateObjectResponse,
  LlmStreamEvent,
  SchemaInput,
  SchemaOutput,
  ToolCallRecord,
} from '../../providers/src/index.js';
import { StructuredOutputError } from '../../providers/src/index.js';
import type { GenerateResult } from '../../providers/src/internal.js';
import { checkReply, compileSchema, runToolLoop, toolSetOf } from '../../providers/src/internal.js';

/**
 * One recorded {@link MockLLM} call: the method name, then its arguments as given
 * (options default to `{}`), e.g. `['chat', 'Hi', { history: [] }]` or `['embed', 'text']`.
 */
export type MockLlmCall =
  | ['chat', ChatInput, ChatOptions]
  | ['complete', string, CallOptions]
  | ['stream', string, CallOptions]
  | ['embed', string | readonly string[]]
  | ['generate', ChatInput, ChatOptions]
  | ['streamEvents', ChatInput, ChatOptions]
  | ['generateObject', ChatInput, GenerateObjectOptions<SchemaInput>]
  | ['tool', ToolCallRecord];

/** A scripted model turn asking for tool calls (run by the mock's tool loop, with validation). */
export interface MockToolCalls {
  toolCalls: { name: string; args: unknown; id?: string }[];
}

/**
 * A scripted answer: a text (for `generateObject`, JSON text), an object (the structured reply
 * of `generateObject`), tool calls (when the call has `tools`), or an error the call throws.
 */
export type MockLlmResponse = string | Error | MockToolCalls | { object: unknown };

/** Computes the answer of each call from its record. */
export type MockLlmResponder = (call: MockLlmCall) => MockLlmResponse | Promise<MockLlmResponse>;

/** Options of {@link MockLLM}. */
export interface MockLlmOptions {
  /** Answer of every call not otherwise scripted. @default "Mock response" */
  response?: string;
  /** Model name reported by `.model`. @default "mock-model" */
  model?: string;
  /** Answers for the next calls, one per call, in order; then `response` again. @default [] */
  responses?: readonly MockLlmResponse[];
  /** Computes every answer; wins over `responses` and `response`. */
  respond?: MockLlmResponder;
}

/** Length of the vectors {@link MockLLM.embed} returns (each element is `0.1`). */
export const MOCK_EMBEDDING_SIZE = 384;

async function* characters(answer: Promise<string>): AsyncGenerator<string> {
  for (const char of await answer) yield char;
}

/**
 * A recording stand-in for `LLM`, usable wherever an `LLM` is injected (both implement
 * `ChatModel`). No network. `chat`/`complete` answer `defaultResponse`; `stream` (and
 * `chat(…, { stream: true })`) yield it one character at a time; `embed` gives 384 × `0.1`.
 * Every call is recorded in `calls`; answers can be scripted per call or computed.
 *
 * @example
 * const llm = new MockLLM({ response: 'Hi!' });
 * await llm.chat('Hello', { history: [] }); // 'Hi!'
 * expect(llm.calls).toEqual([['chat', 'Hello', { history: [] }]]);
 * llm.queueResponses('first', new Error('rate limited')); // the next two calls
 */
export class MockLLM implements ChatModel {
  /** Every call, in order. `reset()` empties it. */
  readonly calls: MockLlmCall[] = [];
  /** Answer of calls not otherwise scripted; may be changed between calls. */
  defaultResponse: string;
  /** The model name. */
  readonly model: string;
  private readonly queue: MockLlmResponse[];
  private readonly respond: MockLlmResponder | undefined;

  constructor(options: MockLlmOptions = {}) {
    this.defaultResponse = options.response ?? 'Mock response';
    this.model = options.model ?? 'mock-model';
    this.queue = [...(options.responses ?? [])];
    this.respond = options.respond;
  }

  /** Scripts the answers of the next calls, in order. Returns the mock for chaining. */
  queueResponses(...responses: MockLlmResponse[]): this {
    this.queue.push(...responses);
    return this;
  }

  /** Records `['chat', message, options]`; streams the response one character at a time. */
  chat(message: ChatInput, options: StreamingChatOptions): Promise<AsyncIterable<string>>;
  /** Records `['chat', message, options]`; answers the response. */
  chat(message: ChatInput, options?: TextChatOptions): Promise<string>;
  /** Records `['chat', message, options]`; answers the response, or streams it with `stream: true`. */
  chat(message: ChatInput, options?: ChatOptions): Promise<string | AsyncIterable<string>>;
  async chat(message: ChatInput, options?: ChatOptions): Promise<string | AsyncIterable<string>> {
    const call: MockLlmCall = ['chat', message, options ?? {}];
    this.calls.push(call);
    // With tools, the scripted turns go through the tool loop (see `generate()`).
    const answer = options?.tools?.length
      ? (await this.loop(call, options)).text
      : await this.answer(call);
    return options?.stream ? characters(Promise.resolve(answer)) : answer;
  }

  /** Records `['complete', prompt, options]` and answers the response. */
  complete(prompt: string, options?: CallOptions): Promise<string> {
    const call: MockLlmCall = ['complete', prompt, options ?? {}];
    this.calls.push(call);
    return this.answer(call);
  }

  /** Records `['stream', prompt, options]` and yields the response one character at a time. */
  stream(prompt: string, options?: CallOptions): AsyncIterable<string> {
    const call: MockLlmCall = ['stream', prompt, options ?? {}];
    this.calls.push(call);
    const answer = this.answer(call);
    // Surfaced when iterated, like a real stream; never an unhandled rejection meanwhile.
    answer.catch(() => undefined);
    return characters(answer);
  }

  /** Records `['embed', text]`; 384 numbers, all `0.1`. */
  embed(text: string): Promise<number[]>;
  /** Records `['embed', texts]`; one vector of 384 × `0.1` per text. */
  embed(texts: readonly string[]): Promise<number[][]>;
  embed(input: string | readonly string[]): Promise<number[] | number[][]> {
    this.calls.push(['embed', input]);
    const vector = () => new Array<number>(MOCK_EMBEDDING_SIZE).fill(0.1);
    return Promise.resolve(typeof input === 'string' ? vector() : input.map(vector));
  }

  /** Empties `calls` (scripted answers stay queued). */
  reset(): void {
    this.calls.length = 0;
  }

  /**
   * Records `['generate', message, options]`. With `tools`, runs the real tool loop over the
   * scripted turns: a `{ toolCalls }` response runs those tools (arguments validated, errors
   * fed back), each recorded as `['tool', { id, name, args, result | error }]`.
   */
  async generate(
    message: ChatInput,
    options: Omit<ChatOptions, 'stream'> = {},
  ): Promise<GenerateResponse> {
    const call: MockLlmCall = ['generate', message, options];
    this.calls.push(call);
    return this.loop(call, options);
  }

  /**
   * Records `['streamEvents', message, options]`; runs the loop of `generate()` and yields its
   * `tool-call`, `tool-result`, `text-delta` (one per character) and `finish` events.
   */
  async streamEvents(
    message: ChatInput,
    options: Omit<ChatOptions, 'stream'> = {},
  ): Promise<AsyncIterable<LlmStreamEvent>> {
    const call: MockLlmCall = ['streamEvents', message, options];
    this.calls.push(call);
    const result = await this.loop(call, options);
    return relay([...events(result)]);
  }

  /**
   * Records `['generateObject', prompt, options]`; the next response (`{ object }` or JSON
   * text) is validated against `schema`: invalid → `StructuredOutputError` (502), as `LLM`.
   */
  async generateObject<const S extends SchemaInput>(
    prompt: ChatInput,
    options: GenerateObjectOptions<S>,
  ): Promise<GenerateObjectResponse<SchemaOutput<S>>> {
    this.calls.push(['generateObject', prompt, options]);
    const scripted = await this.next(['generateObject', prompt, options]);
    const text =
      typeof scripted === 'string'
        ? scripted
        : 'object' in scripted
          ? JSON.stringify(scripted.object)
          : this.defaultResponse;
    const checked = await checkReply(text, compileSchema(options.schema));
    if (!checked.ok) throw new StructuredOutputError(checked.problem, 1);
    return {
      object: checked.value as SchemaOutput<S>,
      attempts: 1,
      provider: 'echo',
      model: this.model,
    };
  }

  private async loop(call: MockLlmCall, options: ChatOptions): Promise<GenerateResponse> {
    const { tools, maxSteps } = toolSetOf(options.tools, options.maxSteps);
    const signal = options.signal ?? new AbortController().signal;
    let n = 0;
    const context = options.toolContext ?? {};
    const result = await runToolLoop(
      { messages: [], tools, maxSteps, signal, context },
      async () => {
        const scripted = await this.next(call);
        if (typeof scripted === 'string') return { text: scripted, finishReason: 'stop' };
        if ('toolCalls' in scripted) {
          const turn: GenerateResult = {
            text: '',
            finishReason: 'tool-calls',
            toolCalls: scripted.toolCalls.map((c) => ({
              id: c.id ?? `mock_call_${++n}`,
              name: c.name,
              arguments: JSON.stringify(c.args) ?? '{}',
            })),
          };
          return turn;
        }
        return { text: JSON.stringify(scripted.object), finishReason: 'stop' };
      },
    );
    for (const step of result.steps) {
      for (const record of step.toolCalls) this.calls.push(['tool', record]);
    }
    return { ...result, provider: 'echo', model: this.model };
  }

  private async next(call: MockLlmCall): Promise<Exclude<MockLlmResponse, Error>> {
    const scripted = this.respond
      ? await this.respond(call)
      : this.queue.length > 0
        ? this.queue.shift()!
        : this.defaultResponse;
    if (scripted instanceof Error) throw scripted;
    return scripted;
  }

  private async answer(call: MockLlmCall): Promise<string> {
    const scripted = await this.next(call);
    if (typeof scripted === 'string') return scripted;
    return 'object' in scripted ? JSON.stringify(scripted.object) : this.defaultResponse;
  }
}

async function* relay<T>(items: readonly T[]): AsyncGenerator<T> {
  for (const item of items) yield await Promise.resolve(item);
}

function* events(result: GenerateResponse): Generator<LlmStreamEvent> {
  for (const step of result.steps) {
    for (const c of step.toolCalls) {
      if (c.error?.startsWith('not run:')) continue;
      yield { type: 'tool-call', data: { id: c.id, name: c.name, args: c.args } };
    }
    for (const c of step.toolCalls) {
      if (c.error?.startsWith('not run:')) continue;
      const outcome = c.error === undefined ? { result: c.result } : { error: c.error };
      yield { type: 'tool-result', data: { id: c.id, name: c.name, ...outcome } };
    }
  }
  for (const char of result.text) yield { type: 'text-delta', data: char };
  yield { type: 'finish', data: { finishReason: result.finishReason, steps: result.steps.length } };
}
