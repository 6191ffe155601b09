import { Controller } from '@nestjs/common';
import { Arg, LLM, MemoryService, RequestSignal, Route, Stream } from 'toolkit';

/** The system prompt every conversation starts from; edit it to give the bot a personality. */
const SYSTEM_PROMPT = 'You are a friendly, concise assistant.';

/**
 * Chat endpoints. `LLM` and `MemoryService` are injected: the model comes from `toolkit.yaml`
 * (`llm.default_model`), the history backend from `memory.backend`.
 */
@Controller()
export class ChatController {
  constructor(
    private readonly llm: LLM,
    private readonly memory: MemoryService,
  ) {}

  /** One answer at once: `{ user_id, message }` → `{ response }`. */
  @Route('/chat', { methods: ['POST'] })
  async chat(@Arg('user_id') userId: string, @Arg('message') message: string) {
    const memory = this.memory.for(userId);
    const history = await memory.toDictList({ maxTokens: 3000 });
    // Stored first, so a message the memory refuses is a 422 before any model call.
    await memory.add('user', message);
    const response = await this.llm.chat(message, { history, system: SYSTEM_PROMPT });
    await memory.add('assistant', response);
    return { response };
  }

  /** The same answer as Server-Sent Events, chunk by chunk. */
  @Route('/chat/stream', { methods: ['POST'] })
  @Stream()
  async *chatStream(
    @Arg('user_id') userId: string,
    @Arg('message') message: string,
    // Fires when the browser goes away: passing it on stops the upstream model call too.
    @RequestSignal() signal: AbortSignal,
  ) {
    const memory = this.memory.for(userId);
    const history = await memory.toDictList({ maxTokens: 3000 });
    // Stored before streaming, so a message the memory refuses is a 422, not a broken stream.
    await memory.add('user', message);
    const stream = await this.llm.chat(message, {
      history,
      system: SYSTEM_PROMPT,
      stream: true,
      signal,
    });
    let answer = '';
    for await (const chunk of stream) {
      answer += chunk;
      yield chunk;
    }
    // Only a complete answer is remembered.
    await memory.add('assistant', answer);
  }

  /** Forgets one user's conversation. */
  @Route('/clear', { methods: ['POST'] })
  async clear(@Arg('user_id') userId: string) {
    await this.memory.for(userId).clear();
    return { status: 'cleared' };
  }
}
