import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Body, Controller } from '@nestjs/common';
import { DefaultChatTransport, readUIMessageStream, type UIMessage, type UIMessageChunk } from 'ai';
import {
  Arg,
  NotFoundError,
  readUiChatRequest,
  RequestSignal,
  ResumableStreams,
  Route,
  Session,
  Stream,
  ToolkitError,
} from 'toolkit';
import { createTestingApp, type TestingApp } from 'toolkit/testing';

/** Words of every answer: the first three go out at once, the rest once the test releases them. */
const WORDS = ['one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight'];

/** A failure whose message is public (a 503), so the error chunk's text can be compared. */
class UpstreamDown extends ToolkitError {
  constructor() {
    super('The model is unavailable', { statusCode: 503 });
  }
}

/** What a test controls of the answers: when the held words go, and how each run ended. */
class Pace {
  runs = 0;
  readonly outcomes: string[] = [];
  private ended: (() => void)[] = [];
  private waiting: (() => void)[] = [];
  /** Releases not yet taken by an answer: a release never waits for the answer to be held. */
  private permits = 0;
  /** Records how a run ended. */
  end(outcome: string): void {
    this.outcomes.push(outcome);
    for (const resolve of this.ended.splice(0)) resolve();
  }
  /** Resolves when the next run ends. */
  nextEnd(): Promise<void> {
    return new Promise((resolve) => this.ended.push(resolve));
  }
  /** Lets the held words of one answer go: the one waiting, else the next to wait. */
  go(): void {
    const waiter = this.waiting.shift();
    if (waiter) waiter();
    else this.permits += 1;
  }
  /** Where an answer holds its words until the test lets them go. */
  wait(): Promise<void> {
    if (this.permits > 0) {
      this.permits -= 1;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.waiting.push(resolve));
  }
}

const pace = new Pace();

@Controller('api')
class ChatController {
  constructor(private readonly streams: ResumableStreams) {}

  @Route('/chat', { methods: ['POST'] })
  @Stream({ format: 'ui-message', resumable: { owner: 'session' } })
  async *chat(@Body() body: unknown, @RequestSignal() signal: AbortSignal) {
    const { message } = readUiChatRequest(body);
    pace.runs += 1;
    let outcome = 'stopped';
    try {
      for (const [i, word] of WORDS.entries()) {
        if (i === 3) await pace.wait();
        if (i === 4 && message === 'fail') throw new UpstreamDown();
        yield `${word} `;
      }
      outcome = 'complete';
    } finally {
      pace.end(signal.aborted ? 'cancelled' : outcome);
    }
  }

  @Route('/chat/:id/stream', { methods: ['GET'] })
  @Stream({ format: 'ui-message' })
  resume(@Arg('id') id: string, @Session() session: string) {
    return this.streams.resumeChat(id, session);
  }

  @Route('/chat/:id/stream', { methods: ['DELETE'] })
  async stop(@Arg('id') id: string, @Session() session: string): Promise<void> {
    if (!(await this.streams.cancelChat(id, session))) {
      throw new NotFoundError('This chat has no answer running');
    }
  }
}

const user = (text: string): UIMessage => ({
  id: `user-${text}`,
  role: 'user',
  parts: [{ type: 'text', text }],
});

/** A browser's cookie jar for one session, as the transport's `fetch`. */
function sessionFetch(): typeof fetch {
  let cookie: string | undefined;
  return async (input, init) => {
    const headers = new Headers(init?.headers);
    if (cookie) headers.set('cookie', cookie);
    const res = await fetch(input, { ...init, headers });
    const set = res.headers.get('set-cookie');
    if (set) cookie = set.split(';')[0];
    return res;
  };
}

function textOf(message: UIMessage | undefined): string {
  return (message?.parts ?? []).map((p) => (p.type === 'text' ? p.text : '')).join('');
}

/** Reads a chunk stream into the UI message the client would show, and the chunks themselves. */
async function collect(
  stream: ReadableStream<UIMessageChunk>,
): Promise<{ message?: UIMessage; chunks: UIMessageChunk[] }> {
  const chunks: UIMessageChunk[] = [];
  const tee = stream.pipeThrough(
    new TransformStream<UIMessageChunk, UIMessageChunk>({
      transform(chunk, controller) {
        chunks.push(chunk);
        controller.enqueue(chunk);
      },
    }),
  );
  let message: UIMessage | undefined;
  for await (const m of readUIMessageStream({ stream: tee })) message = m;
  return { message, chunks };
}

describe("A resumable 'ui-message' stream, resumed by the AI SDK's own transport", () => {
  let testing: TestingApp;
  let api: string;

  beforeAll(async () => {
    testing = await createTestingApp({ controllers: [ChatController] });
    await testing.app.listen(0, '127.0.0.1');
    api = `${(await testing.app.getUrl()).replace('[::1]', '127.0.0.1')}/api/chat`;
  });
  afterAll(() => testing.close());

  /** Starts an answer and reads it until its third word arrived; then the client goes. */
  async function startAndDrop(
    transport: DefaultChatTransport<UIMessage>,
    chatId: string,
    text: string,
  ) {
    const abort = new AbortController();
    const stream = await transport.sendMessages({
      trigger: 'submit-message',
      chatId,
      messageId: undefined,
      messages: [user(text)],
      abortSignal: abort.signal,
    });
    const reader = stream.getReader();
    let deltas = 0;
    while (deltas < 3) {
      const { value, done } = await reader.read();
      if (done) throw new Error('The answer ended before its third word');
      if (value.type === 'text-delta') deltas += 1;
    }
    abort.abort();
    await reader.cancel().catch(() => undefined);
  }

  it('replays the running answer from its start to a reconnecting client, every word once, the handler run once', async () => {
    const transport = new DefaultChatTransport<UIMessage>({ api, fetch: sessionFetch() });
    const runs = pace.runs;
    await startAndDrop(transport, 'chat-resume', 'Hi');
    const resumed = await transport.reconnectToStream({ chatId: 'chat-resume' });
    expect(resumed).not.toBeNull();
    pace.go();
    const { message, chunks } = await collect(resumed as ReadableStream<UIMessageChunk>);
    expect(textOf(message)).toBe(WORDS.map((w) => `${w} `).join(''));
    expect(chunks[0]?.type).toBe('start');
    expect(chunks.at(-1)?.type).toBe('finish');
    expect(pace.runs - runs).toBe(1);
    expect(pace.outcomes.at(-1)).toBe('complete');
    // Over now: nothing left to resume, which the transport reads as null (a 204).
    await expect(transport.reconnectToStream({ chatId: 'chat-resume' })).resolves.toBeNull();
  });

  it('answers 204 for a chat with nothing running, and for the chat of another session', async () => {
    const mine = new DefaultChatTransport<UIMessage>({ api, fetch: sessionFetch() });
    const theirs = sessionFetch();
    await expect(mine.reconnectToStream({ chatId: 'never-started' })).resolves.toBeNull();
    await startAndDrop(mine, 'chat-private', 'Hi');
    const res = await theirs(`${api}/chat-private/stream`);
    expect(res.status).toBe(204);
    expect(await res.text()).toBe('');
    // Its owner still resumes it.
    const resumed = await mine.reconnectToStream({ chatId: 'chat-private' });
    pace.go();
    expect(textOf((await collect(resumed as ReadableStream<UIMessageChunk>)).message)).toContain(
      'eight',
    );
  });

  it('ends a resumed answer whose producer failed with the error chunk the client reports', async () => {
    const transport = new DefaultChatTransport<UIMessage>({ api, fetch: sessionFetch() });
    await startAndDrop(transport, 'chat-fail', 'fail');
    const resumed = await transport.reconnectToStream({ chatId: 'chat-fail' });
    pace.go();
    const { chunks } = await collect(resumed as ReadableStream<UIMessageChunk>).catch(
      (error: unknown) => ({
        chunks: [{ type: 'error', errorText: String(error) }] as UIMessageChunk[],
      }),
    );
    const error = chunks.find((c) => c.type === 'error');
    expect(error).toEqual({ type: 'error', errorText: 'The model is unavailable' });
  });

  it("stops a running answer by its chat id (the AI SDK's stop() only closes the connection)", async () => {
    const fetchWithSession = sessionFetch();
    const transport = new DefaultChatTransport<UIMessage>({ api, fetch: fetchWithSession });
    await startAndDrop(transport, 'chat-stop', 'Hi');
    const stop = await fetchWithSession(`${api}/chat-stop/stream`, { method: 'DELETE' });
    expect(stop.status).toBe(204);
    const ended = pace.nextEnd();
    pace.go();
    await ended;
    await expect(transport.reconnectToStream({ chatId: 'chat-stop' })).resolves.toBeNull();
    expect(pace.outcomes.at(-1)).toBe('cancelled');
    const again = await fetchWithSession(`${api}/chat-stop/stream`, { method: 'DELETE' });
    expect(again.status).toBe(404);
  });

  it('answers a body that is not a UI chat request with a 422, nothing to resume afterwards', async () => {
    const fetchWithSession = sessionFetch();
    const res = await fetchWithSession(api, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ id: 'chat-bad', messages: [{ role: 'robot', parts: [] }] }),
    });
    expect(res.status).toBe(422);
    expect(JSON.stringify(await res.json())).toContain('messages[0].role');
    expect((await fetchWithSession(`${api}/chat-bad/stream`)).status).toBe(204);
  });
});

describe('A chat answered by one process and resumed on another, sharing Redis', () => {
  const config = {
    memory: { backend: 'redis' as const, key_prefix: `ui-resume-${process.pid}-${Date.now()}` },
    // Both processes sign sessions alike, as a deployment's replicas do.
    app: { session_secret: 'a shared secret of the two processes' },
  };
  let a: TestingApp;
  let b: TestingApp;
  const urlOf = async (app: TestingApp): Promise<string> =>
    `${(await app.app.getUrl()).replace('[::1]', '127.0.0.1')}/api/chat`;

  beforeAll(async () => {
    a = await createTestingApp({ controllers: [ChatController], config });
    b = await createTestingApp({ controllers: [ChatController], config });
    await a.app.listen(0, '127.0.0.1');
    await b.app.listen(0, '127.0.0.1');
  });
  afterAll(async () => {
    await a.close();
    await b.close();
  });

  it('finds the running answer by its chat id from the other process and replays all of it', async () => {
    // One browser, whose requests a load balancer sends to either process.
    const jar = sessionFetch();
    const runs = pace.runs;
    const onA = new DefaultChatTransport<UIMessage>({ api: await urlOf(a), fetch: jar });
    const onB = new DefaultChatTransport<UIMessage>({ api: await urlOf(b), fetch: jar });
    const abort = new AbortController();
    const stream = await onA.sendMessages({
      trigger: 'submit-message',
      chatId: 'chat-redis',
      messageId: undefined,
      messages: [user('Hi')],
      abortSignal: abort.signal,
    });
    const reader = stream.getReader();
    for (let deltas = 0; deltas < 3;) {
      const { value } = await reader.read();
      if (value?.type === 'text-delta') deltas += 1;
    }
    abort.abort();
    await reader.cancel().catch(() => undefined);
    const resumed = await onB.reconnectToStream({ chatId: 'chat-redis' });
    expect(resumed).not.toBeNull();
    pace.go();
    const { message } = await collect(resumed as ReadableStream<UIMessageChunk>);
    expect(textOf(message)).toBe(WORDS.map((w) => `${w} `).join(''));
    expect(pace.runs - runs).toBe(1);
    await expect(onB.reconnectToStream({ chatId: 'chat-redis' })).resolves.toBeNull();
  });
});

describe("A resumable 'ui-message' stream whose log cannot be reached", () => {
  let testing: TestingApp;

  beforeAll(async () => {
    testing = await createTestingApp({
      controllers: [ChatController],
      config: { memory: { backend: 'redis', redis_url: 'redis://127.0.0.1:1' } },
    });
    await testing.app.listen(0, '127.0.0.1');
  });
  afterAll(() => testing.close());

  it('still answers in full, as a plain stream the AI SDK reads', async () => {
    const api = `${(await testing.app.getUrl()).replace('[::1]', '127.0.0.1')}/api/chat`;
    const transport = new DefaultChatTransport<UIMessage>({ api, fetch: sessionFetch() });
    const stream = await transport.sendMessages({
      trigger: 'submit-message',
      chatId: 'chat-no-log',
      messageId: undefined,
      messages: [user('Hi')],
      abortSignal: undefined,
    });
    pace.go();
    const { message, chunks } = await collect(stream);
    expect(textOf(message)).toBe(WORDS.map((w) => `${w} `).join(''));
    expect(chunks.map((c) => c.type).filter((t) => t === 'start' || t === 'finish')).toEqual([
      'start',
      'finish',
    ]);
  });
});
