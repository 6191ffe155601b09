import { Body, Controller } from '@nestjs/common';
import {
  Arg,
  assertUiChatHistory,
  LLM,
  MemoryService,
  RateLimit,
  readUiChatRequest,
  recordTurn,
  RequestSignal,
  ResumableStreams,
  Route,
  Session,
  Stream,
  toUiMessages,
  ValidationError,
  type ConversationMemory,
  type UiChatRequest,
} from 'toolkit';
import { MESSAGE, SYSTEM_PROMPT } from './chat.controller.js';

/** A chat id (`useChat`'s `id`): at most 200 characters. */
const CHAT_ID = { maxLength: 200 } as const;

/**
 * The routes a React front end using the AI SDK's `useChat` (`@ai-sdk/react`) calls with no
 * configuration: `DefaultChatTransport` posts to `/api/chat`, and `useChat({ resume: true })`
 * asks `/api/chat/:id/stream` for an answer still running. Each chat (its `id`) is a
 * conversation of the caller's session, kept in toolkit memory: the model gets the stored
 * history, never the messages the client sends back, so a client cannot rewrite what was said.
 */
@Controller()
export class UiChatController {
  constructor(
    private readonly llm: LLM,
    private readonly memory: MemoryService,
    private readonly streams: ResumableStreams,
  ) {}

  /** One chat of this session: its id names it inside the session, never across. */
  private chat(session: string, id: string): ConversationMemory {
    return this.memory.for(`${session}/chat:${id}`);
  }

  /**
   * `useChat`'s request (`{ id, messages, trigger }`) → the answer in the AI SDK's UI message
   * stream protocol. The user messages the client sends before its new one must be the ones
   * stored (422 otherwise). Resumable: the answer goes on when the connection drops (a reload),
   * for `useChat({ resume: true })` to pick up at `GET /api/chat/:id/stream`; Stop is
   * `DELETE /api/chat/:id/stream`, which keeps the answer so far, marked interrupted.
   */
  @Route('/api/chat', { methods: ['POST'] })
  @RateLimit()
  @Stream({ format: 'ui-message', resumable: { owner: 'session' } })
  async send(
    @Session() session: string,
    @Body() body: unknown,
    @RequestSignal() signal: AbortSignal,
  ) {
    const request = readUiChatRequest(body);
    const { id, message } = request;
    checkRequest(request);
    const memory = this.chat(session, id);
    const history = await memory.toDictList({ maxTokens: 3000 });
    assertUiChatHistory(request, history);
    const stream = await this.llm.chat(message, {
      history,
      system: SYSTEM_PROMPT,
      stream: true,
      signal,
      userId: session,
    });
    return recordTurn(memory, message, stream, signal);
  }

  /** The stored conversation as AI SDK UI messages, for `useChat({ messages })` after a reload. */
  @Route('/api/chat/:id/messages', { methods: ['GET'] })
  async messages(@Session() session: string, @Arg('id', CHAT_ID) id: string) {
    return toUiMessages(await this.chat(session, id).toDictList());
  }

  /**
   * What `useChat({ resume: true })` calls when it mounts: 204 when the chat has nothing
   * running, else the running answer from its start, then live.
   */
  @Route('/api/chat/:id/stream', { methods: ['GET'] })
  @Stream({ format: 'ui-message' })
  resume(@Session() session: string, @Arg('id', CHAT_ID) id: string) {
    return this.streams.resumeChat(id, session);
  }

  /**
   * Stops the chat's running answer (`useChat`'s `stop()` only closes the connection, which the
   * answer outlives): the model call ends and the answer so far is kept, marked interrupted.
   */
  @Route('/api/chat/:id/stream', { methods: ['DELETE'] })
  async stop(@Session() session: string, @Arg('id', CHAT_ID) id: string) {
    return { stopped: await this.streams.cancelChat(id, session) };
  }
}

/** 422 for what `readUiChatRequest` lets through but this chat does not take. */
function checkRequest({ id, message, trigger }: UiChatRequest): void {
  if (id.length > CHAT_ID.maxLength) {
    throw new ValidationError([
      { param: 'id', problem: `must be at most ${CHAT_ID.maxLength} characters` },
    ]);
  }
  if (message.length > MESSAGE.maxLength) {
    throw new ValidationError([
      {
        param: 'messages',
        problem: `the last message must be at most ${MESSAGE.maxLength} characters`,
      },
    ]);
  }
  // The stored history is what the model sees: answering a message again would need the
  // stored answer dropped first, which memory does not do.
  if (trigger !== 'submit-message') {
    throw new ValidationError([{ param: 'trigger', problem: 'must be submit-message' }]);
  }
}
