import { Controller, Inject } from '@nestjs/common';
import {
  APP_INFO,
  Arg,
  LLM,
  MemoryService,
  recordTurn,
  RequestSignal,
  Route,
  Session,
  Stream,
  type AppInfo,
} from 'toolkit';
import { CHAT_SYSTEM_PROMPT, conversationOf, USER_ID } from './conversation.js';

/** What the chat page (`public/index.html`) talks to, next to `/chat` in the agent controller. */
@Controller()
export class ChatController {
  constructor(
    private readonly llm: LLM,
    private readonly memory: MemoryService,
    @Inject(APP_INFO) private readonly info: AppInfo,
  ) {}

  /** `{ message, user_id? }` → the answer as Server-Sent Events, chunk by chunk. */
  @Route('/chat/stream', { methods: ['POST'] })
  @Stream()
  async chatStream(
    @Session() session: string,
    @Arg('message', { maxLength: 20_000 }) message: string,
    @Arg('user_id', USER_ID) userId: string,
    // Fires when the browser goes away or presses Stop: passing it on stops the model call too.
    @RequestSignal() signal: AbortSignal,
  ) {
    const memory = conversationOf(this.memory, session, userId);
    const history = await memory.toDictList({ maxTokens: 3000 });
    const stream = await this.llm.chat(message, {
      history,
      system: CHAT_SYSTEM_PROMPT,
      stream: true,
      signal,
    });
    // Remembers the exchange when it ends: a stopped answer is kept as far as it got (marked
    // interrupted); a model failure keeps nothing, so a retry never duplicates the question.
    return recordTurn(memory, message, stream, signal);
  }

  /** This session's conversation, oldest first (the chat page shows it after a reload). */
  @Route('/history', { methods: ['GET'] })
  async history(@Session() session: string, @Arg('user_id', USER_ID) userId: string) {
    const messages = await conversationOf(this.memory, session, userId).toDictList();
    return {
      messages: messages.map(({ role, content, metadata }) => ({
        role,
        content,
        ...(metadata?.interrupted === true && { interrupted: true }),
      })),
    };
  }

  /** Which model answers; `offline` when it is the built-in `echo` (no API key set). */
  @Route('/model', { methods: ['GET'] })
  model() {
    return { app: this.info.name, model: this.llm.model, offline: this.llm.provider === 'echo' };
  }

  /** Forgets this session's conversation (only its own). */
  @Route('/clear', { methods: ['POST'] })
  async clear(@Session() session: string, @Arg('user_id', USER_ID) userId: string) {
    await conversationOf(this.memory, session, userId).clear();
    return { status: 'cleared' };
  }
}
