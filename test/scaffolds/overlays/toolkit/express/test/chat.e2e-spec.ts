import { Test, TestingModule } from '@nestjs/testing';
import { INestApplication } from '@nestjs/common';
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
  let app: INestApplication;
  let llm: MockLLM;

  beforeEach(async () => {
    llm = new MockLLM({ response: MOCK_REPLY });
    const moduleFixture: TestingModule = await Test.createTestingModule({
      imports: [AppModule],
    })
      .overrideProvider(LLM)
      .useValue(llm)
      .compile();

    app = moduleFixture.createNestApplication();
    await app.init();
  });

  it('/chat/ask (POST)', () => expectAsk(app.getHttpServer()));

  it('/chat/stream (GET)', () => expectStream(app.getHttpServer()));

  it('/chat/cached (GET) asks the LLM once', () =>
    expectCached(app.getHttpServer(), llm));

  afterEach(async () => {
    await app.close();
  });
});
