import { Controller } from '@nestjs/common';
import { Arg, Cache, LLM, Route, Stream } from 'toolkit';

/** toolkit's routes in the host app: a JSON answer, a stream and a cached answer. */
@Controller('chat')
export class ChatController {
  constructor(private readonly llm: LLM) {}

  @Route('/ask', { methods: ['POST'] })
  async ask(@Arg('message') message: string) {
    return { reply: await this.llm.complete(message) };
  }

  @Route('/stream')
  @Stream()
  stream(@Arg('message') message: string) {
    return this.llm.stream(message);
  }

  @Route('/cached')
  @Cache({ ttl: 60 })
  async cached(@Arg('message') message: string) {
    return { reply: await this.llm.complete(message) };
  }
}
