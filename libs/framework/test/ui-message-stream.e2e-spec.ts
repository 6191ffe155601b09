import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Controller } from '@nestjs/common';
import { DefaultChatTransport, readUIMessageStream, type UIMessage, type UIMessageChunk } from 'ai';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { App, Arg, defineTool, LLM, readUiChatRequest, Route, Stream, ToolkitError } from 'toolkit';
import { createTestingApp, MockLLM, type TestingApp } from 'toolkit/testing';

/** The part of an AI SDK request body the routes read. */
interface ChatBody {
  messages: UIMessage[];
}

const weather = defineTool({
  name: 'weather',
  description: 'Current weather in a city',
  parameters: {
    type: 'object',
    properties: { city: { type: 'string' } },
    required: ['city'],
  } as const,
  execute: ({ city }) => Promise.resolve({ city, celsius: 21 }),
});

/** A failure whose message is public (a 503), so the client's error text can be compared. */
class UpstreamDown extends ToolkitError {
  constructor() {
    super('The model is unavailable', { statusCode: 503 });
  }
}

function lastText(messages: ChatBody['messages']): string {
  const last = messages.at(-1);
  return (last?.parts ?? []).map((part) => (part.type === 'text' ? part.text : '')).join('');
}

@Controller('api')
class ChatController {
  constructor(private readonly llm: LLM) {}

  @Route('/text', { methods: ['POST'] })
  @Stream({ format: 'ui-message' })
  async *text(@Arg('messages') messages: ChatBody['messages']) {
    yield* this.llm.stream(lastText(messages));
  }

  @Route('/tools', { methods: ['POST'] })
  @Stream({ format: 'ui-message' })
  tools(@Arg('messages') messages: ChatBody['messages']) {
    return this.llm.streamEvents(lastText(messages), { tools: [weather] });
  }

  @Route('/data', { methods: ['POST'] })
  @Stream({ format: 'ui-message' })
  async *data() {
    yield 'Looking it up. ';
    yield { type: 'data-weather', data: { city: 'Paris', celsius: 21 } };
    yield { type: 'data-status', id: 'status-1', data: 'done' };
    yield 'Sunny.';
  }

  @Route('/late-error', { methods: ['POST'] })
  @Stream({ format: 'ui-message' })
  async *lateError() {
    yield 'partial ';
    await Promise.resolve();
    throw new UpstreamDown();
  }

  @Route('/early-error', { methods: ['POST'] })
  @Stream({ format: 'ui-message' })
  async *earlyError() {
    await Promise.resolve();
    throw new UpstreamDown();
  }

  @Route('/plain', { methods: ['POST'] })
  @Stream()
  async *plain() {
    yield { type: 'data-weather', data: { city: 'Paris' } };
  }
}

const user = (text: string): UIMessage => ({
  id: `user-${text.length}`,
  role: 'user',
  parts: [{ type: 'text', text }],
});

describe("@Stream({ format: 'ui-message' }) read by the AI SDK's own client", () => {
  let testing: TestingApp;
  let base: string;
  /** Turns of each `streamEvents` call: a tool call first, then the answer. */
  const turns = new WeakMap<object, number>();
  const llm = new MockLLM({
    respond: (call) => {
      if (call[0] !== 'streamEvents') return 'Hello from toolkit';
      const turn = turns.get(call) ?? 0;
      turns.set(call, turn + 1);
      return turn === 0
        ? { toolCalls: [{ id: 'call-1', name: 'weather', args: { city: 'Paris' } }] }
        : 'It is 21 degrees.';
    },
  });

  beforeAll(async () => {
    testing = await createTestingApp({ controllers: [ChatController], llm });
    await testing.app.listen(0, '127.0.0.1');
    base = (await testing.app.getUrl()).replace('[::1]', '127.0.0.1');
  });
  afterAll(() => testing.close());

  /** What `useChat` does: the transport's request, then the chunks into a UI message. */
  async function chat(
    path: string,
    text = 'Hi',
  ): Promise<{ chunks: UIMessageChunk[]; message: UIMessage }> {
    const transport = new DefaultChatTransport({ api: `${base}${path}` });
    const stream = await transport.sendMessages({
      trigger: 'submit-message',
      chatId: 'chat-1',
      messageId: undefined,
      messages: [user(text)],
      abortSignal: undefined,
    });
    const chunks: UIMessageChunk[] = [];
    const recorded = stream.pipeThrough(
      new TransformStream<UIMessageChunk, UIMessageChunk>({
        transform(chunk, controller) {
          chunks.push(chunk);
          controller.enqueue(chunk);
        },
      }),
    );
    let message: UIMessage | undefined;
    for await (const snapshot of readUIMessageStream({
      stream: recorded,
      terminateOnError: true,
    })) {
      message = snapshot;
    }
    if (!message) throw new Error('no message');
    return { chunks, message };
  }

  it('sends the header, data-only events, start first and [DONE] last', async () => {
    const res = await fetch(`${base}/api/text`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ id: 'c', messages: [user('Hi')], trigger: 'submit-message' }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-vercel-ai-ui-message-stream')).toBe('v1');
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const events = (await res.text()).split('\n\n').filter((e) => e !== '');
    expect(events.every((e) => e.startsWith('data: ') && !e.includes('\n'))).toBe(true);
    expect(events[0]).toBe('data: {"type":"start"}');
    expect(events.at(-1)).toBe('data: [DONE]');
  });

  it('streams text as one text part the client rebuilds exactly', async () => {
    const { chunks, message } = await chat('/api/text');
    const sent = 'Hello from toolkit';
    expect(message.role).toBe('assistant');
    expect(message.parts.filter((p) => p.type === 'text')).toEqual([
      { type: 'text', text: sent, state: 'done' },
    ]);
    const deltas = chunks.filter((c) => c.type === 'text-delta');
    expect(deltas).toHaveLength([...sent].length); // MockLLM streams one character a chunk
    expect(chunks.map((c) => c.type).filter((t) => t !== 'text-delta')).toEqual([
      'start',
      'start-step',
      'text-start',
      'text-end',
      'finish-step',
      'finish',
    ]);
  });

  it('turns llm.streamEvents() tool steps into tool parts with input and output', async () => {
    const { chunks, message } = await chat('/api/tools', 'Weather in Paris?');
    const tools = message.parts.filter((p) => p.type === 'tool-weather');
    expect(tools).toEqual([
      expect.objectContaining({
        type: 'tool-weather',
        toolCallId: 'call-1',
        state: 'output-available',
        input: { city: 'Paris' },
        output: { city: 'Paris', celsius: 21 },
      }),
    ]);
    expect(message.parts.filter((p) => p.type === 'text')).toEqual([
      { type: 'text', text: 'It is 21 degrees.', state: 'done' },
    ]);
    // Two model steps: the tool call, then the answer.
    expect(message.parts.filter((p) => p.type === 'step-start')).toHaveLength(2);
    expect(chunks.filter((c) => c.type === 'tool-input-available')).toHaveLength(1);
    expect(chunks.filter((c) => c.type === 'tool-output-available')).toHaveLength(1);
    const finish = chunks.at(-1);
    expect(finish).toMatchObject({ type: 'finish', finishReason: 'stop' });
    expect(message.metadata).toMatchObject({ steps: 2 });
  });

  it('passes custom data parts through as they are', async () => {
    const { chunks, message } = await chat('/api/data');
    expect(message.parts.filter((p) => p.type.startsWith('data-'))).toEqual([
      { type: 'data-weather', data: { city: 'Paris', celsius: 21 } },
      { type: 'data-status', id: 'status-1', data: 'done' },
    ]);
    expect(message.parts.filter((p) => p.type === 'text')).toEqual([
      { type: 'text', text: 'Looking it up. Sunny.', state: 'done' },
    ]);
    expect(chunks.filter((c) => c.type.startsWith('data-'))).toHaveLength(2);
  });

  it('ends a stream that fails midway with the error the client reports', async () => {
    await expect(chat('/api/late-error')).rejects.toThrow('The model is unavailable');
    const transport = new DefaultChatTransport({ api: `${base}/api/late-error` });
    const stream = await transport.sendMessages({
      trigger: 'submit-message',
      chatId: 'chat-2',
      messageId: undefined,
      messages: [user('Hi')],
      abortSignal: undefined,
    });
    const chunks: UIMessageChunk[] = [];
    for await (const chunk of stream) chunks.push(chunk);
    expect(chunks.map((c) => c.type)).toEqual([
      'start',
      'start-step',
      'text-start',
      'text-delta',
      'error',
    ]);
    expect(chunks.at(-1)).toEqual({ type: 'error', errorText: 'The model is unavailable' });
  });

  it('answers a failure before any output with its status, which the transport reports', async () => {
    const res = await fetch(`${base}/api/early-error`, { method: 'POST' });
    expect(res.status).toBe(503);
    expect(res.headers.get('x-vercel-ai-ui-message-stream')).toBeNull();
    await expect(chat('/api/early-error')).rejects.toThrow('The model is unavailable');
  });

  it('leaves routes without the option on the default SSE format', async () => {
    const res = await fetch(`${base}/api/plain`, { method: 'POST' });
    expect(res.headers.get('x-vercel-ai-ui-message-stream')).toBeNull();
    expect(await res.text()).toContain('event: data-weather\n');
  });
});

describe('readUiChatRequest on an app.route, driven by DefaultChatTransport', () => {
  const app = new App({ logger: false, cwd: '/nonexistent' });
  const llm = new LLM('echo');
  let handlerEnded: Promise<string>;
  let endHandler: (how: string) => void = () => undefined;
  let base: string;

  app.route(
    '/api/chat',
    { methods: ['POST'], stream: { format: 'ui-message' } },
    (_params, { req, signal }) => {
      const { message, history } = readUiChatRequest(req.body);
      return llm.streamEvents(message, { history, signal });
    },
  );
  app.route(
    '/api/slow',
    { methods: ['POST'], stream: { format: 'ui-message' } },
    async function* slow(_params, { signal }) {
      try {
        while (!signal.aborted) {
          yield 'tick ';
          await new Promise((resolve) => setTimeout(resolve, 5));
        }
      } finally {
        endHandler(signal.aborted ? 'aborted' : 'ended');
      }
    },
  );

  beforeAll(async () => {
    const server: Server = await app.run({ host: '127.0.0.1', port: 0, announce: false });
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => app.close());

  const transport = (path: string) => new DefaultChatTransport({ api: `${base}${path}` });

  it('answers the last user message with the earlier ones as history', async () => {
    const stream = await transport('/api/chat').sendMessages({
      trigger: 'submit-message',
      chatId: 'chat-ada',
      messageId: undefined,
      messages: [
        user('Hi, I am Ada'),
        {
          id: 'a1',
          role: 'assistant',
          parts: [{ type: 'step-start' }, { type: 'text', text: 'Nice to meet you, Ada!' }],
        },
        user('What is my name?'),
      ],
      abortSignal: undefined,
    });
    const deltas: string[] = [];
    const recorded = stream.pipeThrough(
      new TransformStream<UIMessageChunk, UIMessageChunk>({
        transform(chunk, controller) {
          if (chunk.type === 'text-delta') deltas.push(chunk.delta);
          controller.enqueue(chunk);
        },
      }),
    );
    let message: UIMessage | undefined;
    for await (const snapshot of readUIMessageStream({ stream: recorded })) message = snapshot;
    // The finish's metadata carries the provider's usage: one output token per delta sent.
    expect(message?.metadata).toMatchObject({
      steps: 1,
      usage: { outputTokens: deltas.length, totalTokens: expect.any(Number) },
    });
    const text = message?.parts.find((p) => p.type === 'text');
    expect(text).toMatchObject({ type: 'text', state: 'done' });
    // Echo's answer shows it saw the first message as history: the name, and the turn count.
    expect(text && 'text' in text ? text.text : '').toBe(
      'Your name is Ada. This is message 2 of our conversation; before this you said "Hi, I am Ada".',
    );
  });

  it('refuses a body that is not a UI chat request with a 422 naming the fields', async () => {
    const res = await fetch(`${base}/api/chat`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        messages: [{ id: 'u', role: 'robot', parts: [{ type: 'bogus' }] }],
      }),
    });
    expect(res.status).toBe(422);
    const body = (await res.json()) as { details: { param: string }[] };
    expect(body.details.map((d) => d.param)).toEqual([
      'id',
      'messages[0].role',
      'messages[0].parts[0].type',
    ]);
    await expect(
      transport('/api/chat').sendMessages({
        trigger: 'submit-message',
        chatId: 'c',
        messageId: undefined,
        messages: [{ id: 'u', role: 'assistant', parts: [{ type: 'text', text: 'x' }] }],
        abortSignal: undefined,
      }),
    ).rejects.toThrow('messages[0].role');
  });

  it("stops the handler when the client's stop() aborts the request", async () => {
    handlerEnded = new Promise((resolve) => (endHandler = resolve));
    const abort = new AbortController();
    const stream = await transport('/api/slow').sendMessages({
      trigger: 'submit-message',
      chatId: 'c',
      messageId: undefined,
      messages: [user('Hi')],
      abortSignal: abort.signal,
    });
    const reader = stream.getReader();
    const types: string[] = [];
    while (!types.includes('text-delta')) types.push((await reader.read()).value?.type ?? '');
    abort.abort();
    // Chunks already buffered may still be read; then the aborted stream fails.
    const outcome = await (async () => {
      for (;;) if ((await reader.read()).done) return 'ended';
    })().catch((error: unknown) => (error as Error).name);
    expect(outcome).toBe('AbortError');
    await expect(handlerEnded).resolves.toBe('aborted');
  });
});
