import type {
  CallOptions,
  ChatInput,
  ChatModel,
  ChatOptions,
  StreamingChatOptions,
  TextChatOptions,
} from '../../providers/src/llm/chat-model.interface.js';

/**
 * One recorded {@link MockLLM} call: the method name, then its arguments as given
 * (options default to `{}`), e.g. `['chat', 'Hi', { history: [] }]` or `['embed', 'text']`.
 */
export type MockLlmCall =
  | ['chat', ChatInput, ChatOptions]
  | ['complete', string, CallOptions]
  | ['stream', string, CallOptions]
  | ['embed', string | readonly string[]];

/** A scripted answer: a text, or an error the call throws. */
export type MockLlmResponse = string | Error;

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
    const answer = await this.answer(call);
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

  private async answer(call: MockLlmCall): Promise<string> {
    const scripted = this.respond
      ? await this.respond(call)
      : this.queue.length > 0
        ? this.queue.shift()!
        : this.defaultResponse;
    if (scripted instanceof Error) throw scripted;
    return scripted;
  }
}
