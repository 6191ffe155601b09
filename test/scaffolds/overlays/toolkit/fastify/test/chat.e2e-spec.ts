import { Test, TestingModule } from '@nestjs/testing';
import {
  FastifyAdapter,
  NestFastifyApplication,
} from '@nestjs/platform-fastify';
import { LLM } from 'toolkit';
import { MockLLM } from 'toolkit/testing';
import { AppModule } from './../src/app.module';
import {
  expectAsk,
  expectCached,
  expectStream,
  MOCK_REPLY,
} from './chat-checks';

describe('ChatController (e2e)', () => {
  let app: NestFastifyApplication;
  let llm: MockLLM;

  beforeEach(async () => {
    llm = new MockLLM({ response: MOCK_REPLY });
    const moduleFixture: TestingModule = await Test.createTestingModule({
      imports: [AppModule],
    })
      .overrideProvider(LLM)
      .useValue(llm)
      .compile();

    app = moduleFixture.createNestApplication<NestFastifyApplication>(
      new FastifyAdapter(),
    );
    await app.init();
    await app.getHttpAdapter().getInstance().ready();
  });

  it('/chat/ask (POST)', () => expectAsk(app.getHttpServer()));

  it('/chat/stream (GET)', () => expectStream(app.getHttpServer()));

  it('/chat/cached (GET) asks the LLM once', () =>
    expectCached(app.getHttpServer(), llm));

  afterEach(async () => {
    await app.close();
  });
});
