import { Test, TestingModule } from '@nestjs/testing';
import { LLM } from 'toolkit';
import { MockLLM } from 'toolkit/testing';
import { ChatController } from './chat.controller';

describe('ChatController', () => {
  let controller: ChatController;

  beforeEach(async () => {
    const module: TestingModule = await Test.createTestingModule({
      controllers: [ChatController],
      providers: [
        {
          provide: LLM,
          useValue: new MockLLM({ response: 'Hi from MockLLM' }),
        },
      ],
    }).compile();

    controller = module.get<ChatController>(ChatController);
  });

  it('should be defined', () => {
    expect(controller).toBeDefined();
  });

  it('should answer with the reply of the LLM', async () => {
    expect(await controller.ask('Hello')).toEqual({ reply: 'Hi from MockLLM' });
  });
});
