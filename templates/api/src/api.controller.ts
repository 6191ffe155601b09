import { Controller, Inject, Req } from '@nestjs/common';
import {
  APP_INFO,
  Arg,
  LLM,
  MemoryService,
  Route,
  ValidationError,
  type AppInfo,
  type HistoryMessage,
} from 'toolkit';
import { callerOf, type CallerRequest } from './api-keys.js';
import { Public } from './public.decorator.js';

/** A conversation the server keeps: named by the client, scoped to its API key. */
const CONVERSATION_ID = { required: false, maxLength: 200 } as const;

const ROLES = new Set(['user', 'assistant', 'system']);

/** The REST endpoints; everything but `/` and `/health` needs an API key. */
@Controller()
export class ApiController {
  constructor(
    private readonly llm: LLM,
    private readonly memory: MemoryService,
    @Inject(APP_INFO) private readonly info: AppInfo,
  ) {}

  @Public()
  @Route('/', { methods: ['GET'] })
  index() {
    return {
      name: this.info.name,
      version: this.info.version,
      endpoints: [
        { method: 'GET', path: '/', auth: false },
        { method: 'GET', path: '/health', auth: false },
        {
          method: 'POST',
          path: '/complete',
          auth: true,
          body: '{ prompt, max_tokens?, temperature? }',
        },
        {
          method: 'POST',
          path: '/chat',
          auth: true,
          body: '{ message, history? } or { message, conversation_id }',
        },
        { method: 'DELETE', path: '/conversations/:conversation_id', auth: true },
      ],
    };
  }

  @Public()
  @Route('/health', { methods: ['GET'] })
  health() {
    return { status: 'healthy', version: this.info.version };
  }

  /** `{ prompt, max_tokens?, temperature? }` → `{ completion }`. */
  @Route('/complete', { methods: ['POST'] })
  async complete(
    @Arg('prompt', { maxLength: 20_000 }) prompt: string,
    @Arg('max_tokens', { type: 'integer', min: 1, max: 4096, required: false }) maxTokens?: number,
    @Arg('temperature', { min: 0, max: 2, required: false }) temperature?: number,
  ) {
    const completion = await this.llm.complete(prompt, { maxTokens, temperature });
    return { completion };
  }

  /**
   * `{ message, history? }` → `{ response }`, the client keeping the history; or
   * `{ message, conversation_id }`, the server keeping it, per API key: another key naming the
   * same conversation_id never sees it.
   */
  @Route('/chat', { methods: ['POST'] })
  async chat(
    @Req() req: CallerRequest,
    @Arg('message', { maxLength: 20_000 }) message: string,
    @Arg('history', { default: [], maxLength: 100 }) history: unknown[],
    @Arg('conversation_id', CONVERSATION_ID) conversationId?: string,
  ) {
    if (conversationId === undefined) {
      const response = await this.llm.chat(message, { history: checkHistory(history) });
      return { response };
    }
    if (history.length > 0) {
      throw new ValidationError([
        { param: 'history', problem: 'must be left out when conversation_id is given' },
      ]);
    }
    const memory = this.conversation(req, conversationId);
    const stored = await memory.toDictList({ maxTokens: 3000 });
    const response = await this.llm.chat(message, { history: stored });
    // Both messages together, once the answer exists: a failed call leaves no trace.
    await memory.addTurn(message, response);
    return { response, conversation_id: conversationId };
  }

  /** Forgets one conversation of the calling key. */
  @Route('/conversations/:conversation_id', { methods: ['DELETE'] })
  async forget(@Req() req: CallerRequest, @Arg('conversation_id') conversationId: string) {
    await this.conversation(req, conversationId).clear();
    return { status: 'cleared', conversation_id: conversationId };
  }

  private conversation(req: CallerRequest, conversationId: string) {
    // ApiKeyGuard let the request in, so it presented a key.
    return this.memory.for(`${callerOf(req) ?? 'anonymous'}/${conversationId}`);
  }
}

/** Each history element must be `{ role: user|assistant|system, content: string }`. */
function checkHistory(history: unknown[]): HistoryMessage[] {
  const problems = history.flatMap((item, index) => {
    const message = item as Partial<HistoryMessage> | null;
    const ok =
      typeof message === 'object' &&
      message !== null &&
      ROLES.has(String(message.role)) &&
      typeof message.content === 'string';
    return ok
      ? []
      : [
          {
            param: `history[${index}]`,
            problem: 'must be { role: user|assistant|system, content: string }',
          },
        ];
  });
  if (problems.length > 0) throw new ValidationError(problems);
  return history as HistoryMessage[];
}
