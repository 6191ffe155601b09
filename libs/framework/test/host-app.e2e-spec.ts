/**
 * ToolkitModule inside an application that is the user's own: `NestFactory.create(AppModule)`
 * with `ToolkitModule.forRoot()` (no argument), or a hand-written `@nestjs/testing` module. The
 * host's routes answer exactly as in bare Nest; toolkit's routes answer toolkit's way beside them.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  BadRequestException,
  Catch,
  Controller,
  Get,
  Inject,
  Module,
  Post,
  type ArgumentsHost,
  type ExceptionFilter,
  type INestApplication,
  type Type,
} from '@nestjs/common';
import { APP_FILTER, NestFactory } from '@nestjs/core';
import { Test } from '@nestjs/testing';
import {
  Arg,
  Cache,
  exceptionFilterFirst,
  LLM,
  Route,
  Stream,
  TOOLKIT_CONFIG,
  ToolkitModule,
  type ToolkitConfig,
} from 'toolkit';
import { ServiceUnavailableError } from 'toolkit/providers';
import { MockLLM, TestClient } from 'toolkit/testing';
import { sendJson, testAdapter } from '../../../test/support/platform.js';

@Controller('own')
class OwnController {
  @Get()
  list() {
    return [{ id: 1 }];
  }

  @Get('bad')
  bad(): never {
    throw new BadRequestException('x');
  }

  @Post('tuple')
  tuple() {
    return ['x', 418];
  }

  @Get('outage')
  outage(): never {
    throw new ServiceUnavailableError('The memory backend is down');
  }
}

let cachedRuns = 0;

@Controller('ai')
class AiController {
  constructor(@Inject(LLM) private readonly llm: LLM) {}

  @Route('/ask', { methods: ['POST'] })
  async ask(@Arg('question') question: string) {
    return { answer: await this.llm.chat(question) };
  }

  @Route('/words', { methods: ['POST'] })
  @Stream()
  async *words(@Arg('text') text: string) {
    for (const word of text.split(' ')) yield word;
  }

  @Route('/cached')
  @Cache({ ttl: 60 })
  cached() {
    cachedRuns += 1;
    return { runs: cachedRuns };
  }

  @Route('/guarded-tuple')
  guardedTuple() {
    return [{ created: true }, 201];
  }
}

@Module({
  imports: [ToolkitModule.forRoot()],
  controllers: [OwnController, AiController],
})
class AppModule {}

describe('a plain Nest app importing ToolkitModule.forRoot()', () => {
  let nest: INestApplication;
  let client: TestClient;
  beforeAll(async () => {
    nest = await NestFactory.create(AppModule, testAdapter(), { logger: false });
    await nest.init();
    client = new TestClient(nest);
  });
  afterAll(async () => {
    await nest.close();
  });

  it("keeps Nest's default answers on the host's own routes", async () => {
    expect((await client.get('/own')).json()).toEqual([{ id: 1 }]);
    const bad = await client.get('/own/bad');
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ message: 'x', error: 'Bad Request', statusCode: 400 });
    const tuple = await client.post('/own/tuple');
    expect(tuple.statusCode).toBe(201);
    expect(tuple.json()).toEqual(['x', 418]);
    const missing = await client.get('/nowhere');
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({
      message: 'Cannot GET /nowhere',
      error: 'Not Found',
      statusCode: 404,
    });
  });

  it("answers a toolkit error with toolkit's body wherever it is thrown", async () => {
    const res = await client.get('/own/outage');
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({ error: 'The memory backend is down' });
  });

  it("serves toolkit's routes beside them, with toolkit's rules", async () => {
    const asked = await client.post('/ai/ask', { json: { question: 'hello there' } });
    expect(asked.statusCode).toBe(200);
    expect(asked.json<{ answer: string }>().answer).toMatch(/I am echo, the offline model/);
    const invalid = await client.post('/ai/ask', { json: {} });
    expect(invalid.statusCode).toBe(422);
    expect(invalid.json()).toEqual({
      error: 'Invalid parameters: question is required',
      details: [{ param: 'question', problem: 'is required' }],
    });
    const streamed = await client.post('/ai/words', { json: { text: 'one two' } });
    expect(streamed.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    expect(streamed.events().map((e) => e.data)).toEqual(['one', 'two']);
    expect((await client.get('/ai/cached')).headers['x-cache']).toBe('MISS');
    const hit = await client.get('/ai/cached');
    expect(hit.headers['x-cache']).toBe('HIT');
    expect(hit.json()).toEqual({ runs: 1 });
    expect((await client.get('/ai/guarded-tuple')).statusCode).toBe(201);
  });

  it('resolves configuration with no options at all', () => {
    const config = nest.get<ToolkitConfig>(TOOLKIT_CONFIG);
    expect(config.app.name).toBe('toolkit-app');
    expect(config.cache.backend).toBe('memory');
  });
});

describe('ToolkitModule options', () => {
  it('forRootAsync() needs no argument, and takes a factory', async () => {
    @Module({ imports: [ToolkitModule.forRootAsync()], controllers: [AiController] })
    class BareAsync {}
    const bare = await NestFactory.create(BareAsync, testAdapter(), { logger: false });
    expect(bare.get<ToolkitConfig>(TOOLKIT_CONFIG).app.name).toBe('toolkit-app');
    await bare.close();

    @Module({
      imports: [
        ToolkitModule.forRootAsync({
          useFactory: () => ({ config: { app: { name: 'legacy' } }, cwd: '/nonexistent' }),
        }),
      ],
      controllers: [AiController],
    })
    class FactoryAsync {}
    const configured = await NestFactory.create(FactoryAsync, testAdapter(), { logger: false });
    expect(configured.get<ToolkitConfig>(TOOLKIT_CONFIG).app.name).toBe('legacy');
    await configured.close();
  });

  it("errors: 'all' gives every route and unknown paths toolkit's answers", async () => {
    @Module({ imports: [ToolkitModule.forRoot({ errors: 'all' })], controllers: [OwnController] })
    class AllErrors {}
    const nest = await NestFactory.create(AllErrors, testAdapter(), { logger: false });
    const client = new TestClient(nest);
    expect((await client.get('/own/bad')).json()).toEqual({ error: 'x' });
    expect((await client.get('/nowhere')).json()).toEqual({ error: 'Not Found' });
    const wrongMethod = await client.delete('/own');
    expect(wrongMethod.statusCode).toBe(405);
    expect(wrongMethod.headers.allow).toBe('GET, HEAD');
    await nest.close();
  });
});

describe("the user's own global filters", () => {
  @Catch(BadRequestException)
  class RootFilter implements ExceptionFilter {
    catch(_error: BadRequestException, host: ArgumentsHost): void {
      sendJson(host.switchToHttp().getResponse(), 400, { by: 'root filter' });
    }
  }

  // Nest tries global filters last-registered first, and registers those of a module before those
  // of the modules it imports, in the order of its imports. Toolkit's filter catches everything.
  @Module({ providers: [{ provide: APP_FILTER, useClass: RootFilter }] })
  class FiltersModule {}

  async function clientOf(root: Type): Promise<{ client: TestClient; close(): Promise<void> }> {
    const nest = await NestFactory.create(root, testAdapter(), { logger: false });
    return { client: new TestClient(nest), close: () => nest.close() };
  }

  it('win over toolkit as an APP_FILTER of a module imported after ToolkitModule', async () => {
    @Module({
      imports: [ToolkitModule.forRoot({ errors: 'all' }), FiltersModule],
      controllers: [OwnController],
    })
    class FiltersAfter {}
    const { client, close } = await clientOf(FiltersAfter);
    expect((await client.get('/own/bad')).json()).toEqual({ by: 'root filter' });
    // What it does not catch is still toolkit's.
    expect((await client.get('/nowhere')).json()).toEqual({ error: 'Not Found' });
    await close();
  });

  it('win over toolkit with useGlobalFilters, on routes and on unknown paths', async () => {
    @Catch()
    class CatchAll implements ExceptionFilter {
      catch(_error: unknown, host: ArgumentsHost): void {
        sendJson(host.switchToHttp().getResponse(), 418, { by: 'catch-all' });
      }
    }
    @Module({ imports: [ToolkitModule.forRoot({ errors: 'all' })], controllers: [OwnController] })
    class WithGlobalFilter {}
    const nest = await NestFactory.create(WithGlobalFilter, testAdapter(), { logger: false });
    nest.useGlobalFilters(new RootFilter());
    const client = new TestClient(nest);
    expect((await client.get('/own/bad')).json()).toEqual({ by: 'root filter' });
    expect((await client.get('/own/outage')).json()).toEqual({
      error: 'The memory backend is down',
    });
    await nest.close();

    const all = await NestFactory.create(WithGlobalFilter, testAdapter(), { logger: false });
    all.useGlobalFilters(new CatchAll());
    const caught = await new TestClient(all).get('/nowhere');
    expect(caught.statusCode).toBe(418);
    expect(caught.json()).toEqual({ by: 'catch-all' });
    await all.close();
  });

  it('come after toolkit as an APP_FILTER of the module importing it, or of one imported before', async () => {
    // Registered before toolkit's catch-all, so toolkit answers first (see the README).
    @Module({
      imports: [ToolkitModule.forRoot({ errors: 'all' })],
      controllers: [OwnController],
      providers: [{ provide: APP_FILTER, useClass: RootFilter }],
    })
    class InRoot {}
    const inRoot = await clientOf(InRoot);
    expect((await inRoot.client.get('/own/bad')).json()).toEqual({ error: 'x' });
    await inRoot.close();

    @Module({
      imports: [FiltersModule, ToolkitModule.forRoot({ errors: 'all' })],
      controllers: [OwnController],
    })
    class FiltersBefore {}
    const before = await clientOf(FiltersBefore);
    expect((await before.client.get('/own/bad')).json()).toEqual({ error: 'x' });
    await before.close();

    // Without `errors: 'all'`, toolkit gives the host's own route Nest's default answer.
    @Module({
      imports: [ToolkitModule.forRoot()],
      controllers: [OwnController],
      providers: [{ provide: APP_FILTER, useClass: RootFilter }],
    })
    class InRootDefault {}
    const byDefault = await clientOf(InRootDefault);
    expect((await byDefault.client.get('/own/bad')).json()).toEqual({
      statusCode: 400,
      message: 'x',
      error: 'Bad Request',
    });
    await byDefault.close();
  });

  it('win over toolkit as an APP_FILTER of the root when its metadata goes through exceptionFilterFirst', async () => {
    @Module(
      exceptionFilterFirst({
        imports: [ToolkitModule.forRoot()],
        controllers: [OwnController, AiController],
        providers: [{ provide: APP_FILTER, useClass: RootFilter }],
      }),
    )
    class FilterFirst {}
    const { client, close } = await clientOf(FilterFirst);
    expect((await client.get('/own/bad')).json()).toEqual({ by: 'root filter' });
    // What it does not catch is still toolkit's.
    expect((await client.post('/ai/ask', { json: {} })).statusCode).toBe(422);
    expect((await client.get('/own/outage')).json()).toEqual({
      error: 'The memory backend is down',
    });
    await close();
  });

  it("win on the host's own routes in errors: 'toolkit' mode when imported after toolkit", async () => {
    @Module({
      imports: [ToolkitModule.forRoot(), FiltersModule],
      controllers: [OwnController, AiController],
    })
    class DefaultErrors {}
    const { client, close } = await clientOf(DefaultErrors);
    expect((await client.get('/own/bad')).json()).toEqual({ by: 'root filter' });
    // Toolkit's routes and errors still answer toolkit's way.
    expect((await client.post('/ai/ask', { json: {} })).statusCode).toBe(422);
    expect((await client.get('/own/outage')).json()).toEqual({
      error: 'The memory backend is down',
    });
    await close();
  });
});

describe('a hand-written @nestjs/testing module', () => {
  it('overrides LLM with MockLLM', async () => {
    const llm = new MockLLM({ response: 'mocked' });
    const module = await Test.createTestingModule({ imports: [AppModule] })
      .overrideProvider(LLM)
      .useValue(llm)
      .compile();
    const app = module.createNestApplication(testAdapter(), { logger: false });
    await app.init();
    const res = await new TestClient(app).post('/ai/ask', { json: { question: 'hi' } });
    expect(res.json()).toEqual({ answer: 'mocked' });
    expect(llm.calls).toEqual([['chat', 'hi', {}]]);
    await app.close();
  });
});
