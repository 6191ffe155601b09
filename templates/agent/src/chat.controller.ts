import { Controller, Inject } from '@nestjs/common';
import {
  APP_INFO,
  Arg,
  LLM,
  MemoryService,
  RateLimit,
  recordTurn,
  RequestSignal,
  Route,
  Session,
  Stream,
  ToolRegistry,
  type AppInfo,
} from 'toolkit';
import {
  CHAT_SYSTEM_PROMPT,
  conversationId,
  conversationOf,
  MESSAGE,
  USER_ID,
} from './conversation.js';

/** What the chat page (`public/index.html`) talks to, next to `/chat` in the agent controller. */
@Controller()
export class ChatController {
  constructor(
    private readonly llm: LLM,
    private readonly memory: MemoryService,
    private readonly tools: ToolRegistry,
    @Inject(APP_INFO) private readonly info: AppInfo,
  ) {}

  /**
   * `{ message, user_id? }` → the answer as Server-Sent Events of their own types: `tool-call`
   * and `tool-result` around each tool the model uses (the page shows them as steps),
   * `text-delta` chunks of the answer, then `finish`. Resumable: a dropped connection does not
   * lose the answer for `limits.detached_grace` seconds (the page resumes with `Last-Event-ID`);
   * Stop cancels it on the server (`DELETE /streams/:id`), keeping the answer so far. The stream
   * belongs to the session (its id alone reads or stops nothing); the route is rate-limited and
   * the model calls are made for the session, so `llm.budget` applies.
   */
  @Route('/chat/stream', { methods: ['POST'] })
  @RateLimit()
  @Stream({ resumable: { owner: 'session' } })
  async chatStream(
    @Session() session: string,
    @Arg('message', MESSAGE) message: string,
    @Arg('user_id', USER_ID) userId: string,
    // Fires on Stop, shutdown or when nobody read the answer for `limits.detached_grace`
    // seconds: passing it on stops the model call too.
    @RequestSignal() signal: AbortSignal,
  ) {
    const memory = conversationOf(this.memory, session, userId);
    const history = await memory.toDictList({ maxTokens: 3000 });
    const events = await this.llm.streamEvents(message, {
      history,
      system: CHAT_SYSTEM_PROMPT,
      tools: this.tools.all(),
      toolContext: { conversation: conversationId(session, userId) },
      signal,
      userId: session,
    });
    // Remembers the exchange when it ends (the text of its `text-delta` events, and the tool
    // calls with their results, which the next turn's model call sees again): a stopped
    // answer is kept as far as it got (marked interrupted); a model failure keeps nothing, so a
    // retry never duplicates the question.
    return recordTurn(memory, message, events, signal);
  }

  /**
   * This session's conversation, oldest first (the chat page shows it after a reload): each
   * answer with the tool steps it took (`tools`: `{ id, name, args, result | error, step }`),
   * shown as the page showed them live.
   */
  @Route('/history', { methods: ['GET'] })
  async history(@Session() session: string, @Arg('user_id', USER_ID) userId: string) {
    const messages = await conversationOf(this.memory, session, userId).toDictList();
    return {
      messages: messages.map(({ role, content, metadata, tools }) => ({
        role,
        content,
        ...(metadata?.interrupted === true && { interrupted: true }),
        ...(tools !== undefined && { tools }),
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
