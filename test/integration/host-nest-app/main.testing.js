import 'reflect-metadata';
import { Test } from '@nestjs/testing';
import { LLM } from 'toolkit';
import { MockLLM } from 'toolkit/testing';
import { AppModule } from './app.module.js';

// The same module in a @nestjs/testing module, its LLM replaced by toolkit's MockLLM.
const moduleRef = await Test.createTestingModule({ imports: [AppModule] })
  .overrideProvider(LLM)
  .useValue(new MockLLM({ response: 'mocked' }))
  .compile();
const app = moduleRef.createNestApplication({ logger: ['error', 'warn'] });
app.enableShutdownHooks();
await app.listen(0, '127.0.0.1');
console.log(`listening on ${await app.getUrl()}`);
