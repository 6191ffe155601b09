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
  type AppInfo,
  type ConversationMemory,
} from 'toolkit';

/**
 * The system prompt every conversation starts from (here and in `ui-chat.controller.ts`); edit it
 * to give the bot a personality.
 */
export const SYSTEM_PROMPT = 'You are a friendly, concise assistant.';

/** `user_id` is optional: one session (one browser) may keep several named conversations. */
const USER_ID = { default: 'me', maxLength: 200 } as const;

/** The longest message accepted (characters); a longer one answers 422. */
export const MESSAGE = { maxLength: 20_000 } as const;

/**
 * Chat endpoints. `LLM` and `MemoryService` are injected: the model comes from `toolkit.yaml`
 * (`llm.default_model`), the history backend from `memory.backend`. Conversations belong to the
 * caller's session (`@Session()`: a server-issued cookie, or the user your auth guard sets), so
 * nobody reads or clears another's history by sending their `user_id`.
 *
 * The routes that call the model are `@RateLimit()`ed per session and per client address
 * (toolkit.yaml's `limits:`), and each call is made for the session (`userId`), so
 * `llm.budget.per_user_usd_per_day` caps what one session may spend.
 */
@Controller()
export class ChatController {
  constructor(
    private readonly llm: LLM,
    private readonly memory: MemoryService,
    @Inject(APP_INFO) private readonly info: AppInfo,
  ) {}

  /** One conversation of this session: `user_id` names it inside the session, never across. */
  private conversation(session: string, userId: string): ConversationMemory {
    return this.memory.for(`${session}/${userId}`);
  }

  /** One answer at once: `{ message, user_id? }` → `{ response }`. */
  @Route('/chat', { methods: ['POST'] })
  @RateLimit()
  async chat(
    @Session() session: string,
    @Arg('message', MESSAGE) message: string,
    @Arg('user_id', USER_ID) userId: string,
  ) {
    const memory = this.conversation(session, userId);
    const history = await memory.toDictList({ maxTokens: 3000 });
    const response = await this.llm.chat(message, {
      history,
      system: SYSTEM_PROMPT,
      userId: session,
    });
    // Stored only once the answer exists, both messages together: a failed call leaves no trace.
    await memory.addTurn(message, response);
    return { response };
  }

  /**
   * The same answer as Server-Sent Events, chunk by chunk. Resumable: the answer goes on if the
   * connection drops, for `limits.detached_grace` seconds, and the page picks it up again with
   * `Last-Event-ID`; Stop cancels it (`DELETE /streams/:id`), which keeps the answer so far,
   * marked interrupted. The stream belongs to the session: its id alone reads or stops nothing.
   */
  @Route('/chat/stream', { methods: ['POST'] })
  @RateLimit()
  @Stream({ resumable: { owner: 'session' } })
  async chatStream(
    @Session() session: string,
    @Arg('message', MESSAGE) message: string,
    @Arg('user_id', USER_ID) userId: string,
    // Fires when the page presses Stop, the server shuts down or nobody read the answer for
    // `limits.detached_grace` seconds: it stops the model call too. A dropped connection alone
    // does not fire it: the answer goes on, for the page to resume.
    @RequestSignal() signal: AbortSignal,
  ) {
    const memory = this.conversation(session, userId);
    const history = await memory.toDictList({ maxTokens: 3000 });
    const stream = await this.llm.chat(message, {
      history,
      system: SYSTEM_PROMPT,
      stream: true,
      signal,
      userId: session,
    });
    // Remembers the exchange when it ends: a stopped answer is kept as far as it got (marked
    // interrupted); a model failure keeps nothing, so a retry never duplicates the question.
    return recordTurn(memory, message, stream, signal);
  }

  /** This session's conversation, oldest first (the chat page shows it after a reload). */
  @Route('/history', { methods: ['GET'] })
  async history(@Session() session: string, @Arg('user_id', USER_ID) userId: string) {
    const messages = await this.conversation(session, userId).toDictList();
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
    await this.conversation(session, userId).clear();
    return { status: 'cleared' };
  }
}
