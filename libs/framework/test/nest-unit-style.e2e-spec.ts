/**
 * The tests Nest users write for their controllers: the unit test `nest g controller` generates
 * (`Test.createTestingModule({ controllers, providers })`, no `ToolkitModule`), and the e2e test
 * that imports the application's module and overrides `LLM`. Toolkit's interceptors, guards and
 * pipes resolve in both, and the module of the first answers as an application too.
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import { Controller, Get, Inject, Module, type INestApplication } from '@nestjs/common';
import { Test, type TestingModule } from '@nestjs/testing';
import { Arg, Cache, LLM, RateLimit, Route, Session, Stream, ToolkitModule } from 'toolkit';
import { MockLLM, TestClient } from 'toolkit/testing';
import { testAdapter } from '../../../test/support/platform.js';

@Controller('chat')
class ChatController {
  constructor(@Inject(LLM) private readonly llm: LLM) {}

  @Route('/ask')
  async ask(@Arg('question') question: string) {
    return { answer: await this.llm.chat(question) };
  }

  @Route('/words', { methods: ['POST'] })
  @Stream()
  async *words(@Arg('text') text: string) {
    for (const word of text.split(' ')) yield word;
  }

  @Route('/summary')
  @Cache({ ttl: 60 })
  async summary(@Arg('text') text: string) {
    return { summary: await this.llm.chat(`Summarize: ${text}`) };
  }

  @Route('/cached-words')
  @Stream()
  @Cache()
  async *cachedWords(@Arg('text') text: string) {
    yield* await this.llm.chat(text, { stream: true });
  }

  @Route('/me')
  @RateLimit({ session: 5 })
  me(@Session() session: string) {
    return { session };
  }
}

/** A controller with no dependency at all: the generated spec provides nothing. */
@Controller('bare')
class BareController {
  @Route('/ping')
  @Stream()
  @Cache()
  async *ping() {
    yield 'pong';
  }

  @Get('/me')
  @RateLimit()
  me(@Session() session: string) {
    return { session };
  }
}

@Module({
  imports: [ToolkitModule.forRoot({ cwd: '/nonexistent' })],
  controllers: [ChatController],
})
class AppModule {}

/** What `nest g controller` writes, with `LLM` provided. */
function generatedStyle(llm: MockLLM): Promise<TestingModule> {
  return Test.createTestingModule({
    controllers: [ChatController],
    providers: [{ provide: LLM, useValue: llm }],
  }).compile();
}

describe('the unit test `nest g controller` writes, without ToolkitModule', () => {
  const opened: { close(): Promise<void> }[] = [];
  afterEach(async () => {
    for (const closable of opened.splice(0)) await closable.close();
  });

  async function application(module: TestingModule): Promise<INestApplication> {
    const app = module.createNestApplication(testAdapter(), { logger: false });
    opened.push(app);
    await app.init();
    return app;
  }

  it('compiles, with only LLM provided', async () => {
    const module = await generatedStyle(new MockLLM());
    opened.push(module);
    const controller = module.get(ChatController);
    expect(controller).toBeDefined();
  });

  it('compiles with nothing provided for a controller that needs nothing', async () => {
    const module = await Test.createTestingModule({ controllers: [BareController] }).compile();
    opened.push(module);
    expect(module.get(BareController)).toBeDefined();
  });

  it('lets the test call the methods directly', async () => {
    const llm = new MockLLM({ response: 'mocked' });
    const module = await generatedStyle(llm);
    opened.push(module);
    const controller = module.get(ChatController);
    await expect(controller.ask('hi')).resolves.toEqual({ answer: 'mocked' });
    await expect(controller.summary('long text')).resolves.toEqual({ summary: 'mocked' });
    const words: string[] = [];
    for await (const word of controller.words('one two')) words.push(word);
    expect(words).toEqual(['one', 'two']);
    expect(controller.me('session:abc')).toEqual({ session: 'session:abc' });
    expect(llm.calls.map((call) => call[1])).toEqual(['hi', 'Summarize: long text']);
  });

  it('answers as an application: SSE on @Stream, and @Cache keeps the result', async () => {
    const llm = new MockLLM({ response: 'mocked' });
    const client = new TestClient(await application(await generatedStyle(llm)));

    const streamed = await client.post('/chat/words', { json: { text: 'one two' } });
    expect(streamed.statusCode).toBe(200);
    expect(streamed.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    expect(streamed.events().map((event) => event.data)).toEqual(['one', 'two']);

    const first = await client.get('/chat/summary', { params: { text: 'abc' } });
    expect([first.headers['x-cache'], first.json()]).toEqual(['MISS', { summary: 'mocked' }]);
    const second = await client.get('/chat/summary', { params: { text: 'abc' } });
    expect([second.headers['x-cache'], second.json()]).toEqual(['HIT', { summary: 'mocked' }]);
    expect(llm.calls).toHaveLength(1);

    const live = await client.get('/chat/cached-words', { params: { text: 'a b' } });
    const replayed = await client.get('/chat/cached-words', { params: { text: 'a b' } });
    expect(live.headers['x-cache']).toBe('MISS');
    expect(replayed.headers['x-cache']).toBe('HIT');
    expect(replayed.events().map((event) => event.data)).toEqual(
      live.events().map((event) => event.data),
    );
    expect(llm.calls).toHaveLength(2);
  });

  it('gives each compiled module an empty cache of its own', async () => {
    const llm = new MockLLM({ response: 'mocked' });
    for (const expected of ['MISS', 'MISS']) {
      const client = new TestClient(await application(await generatedStyle(llm)));
      const res = await client.get('/chat/summary', { params: { text: 'same' } });
      expect(res.headers['x-cache']).toBe(expected);
    }
    expect(llm.calls).toHaveLength(2);
  });

  it('issues one session that @Session() and @RateLimit() agree on', async () => {
    const client = new TestClient(await application(await generatedStyle(new MockLLM())));
    const first = await client.get('/chat/me');
    expect(first.statusCode).toBe(200);
    expect(first.headers['x-ratelimit-limit']).toBe('5');
    const cookie = String(first.headers['set-cookie']).split(';')[0];
    const { session } = first.json<{ session: string }>();
    expect(session).toMatch(/^session:/);
    const again = await client.get('/chat/me', { headers: { cookie } });
    expect(again.json()).toEqual({ session });
    expect(again.headers['x-ratelimit-remaining']).toBe('3');
  });

  it('streams from a controller with nothing provided', async () => {
    const module = await Test.createTestingModule({ controllers: [BareController] }).compile();
    const client = new TestClient(await application(module));
    const res = await client.get('/bare/ping');
    expect(res.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    expect(res.events().map((event) => event.data)).toEqual(['pong']);
    expect((await client.get('/bare/ping')).headers['x-cache']).toBe('HIT');
  });
});

describe('the e2e test that imports AppModule and overrides LLM', () => {
  it('still serves the stream and the cache with ToolkitModule', async () => {
    const llm = new MockLLM({ response: 'mocked' });
    const module = await Test.createTestingModule({ imports: [AppModule] })
      .overrideProvider(LLM)
      .useValue(llm)
      .compile();
    expect(module.get(ChatController)).toBeDefined();
    const app = module.createNestApplication(testAdapter(), { logger: false });
    await app.init();
    try {
      const client = new TestClient(app);
      const streamed = await client.post('/chat/words', { json: { text: 'one two' } });
      expect(streamed.events().map((event) => event.data)).toEqual(['one', 'two']);
      expect((await client.get('/chat/summary', { params: { text: 'x' } })).json()).toEqual({
        summary: 'mocked',
      });
      const hit = await client.get('/chat/summary', { params: { text: 'x' } });
      expect(hit.headers['x-cache']).toBe('HIT');
      expect(llm.calls).toHaveLength(1);
    } finally {
      await app.close();
    }
  });
});
