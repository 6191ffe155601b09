import { Controller, Inject } from '@nestjs/common';
import {
  APP_INFO,
  Arg,
  LLM,
  Route,
  ValidationError,
  type AppInfo,
  type HistoryMessage,
} from 'toolkit';
import { Public } from './public.decorator.js';

const ROLES = new Set(['user', 'assistant', 'system']);

/** The REST endpoints; everything but `/` and `/health` needs an API key. */
@Controller()
export class ApiController {
  constructor(
    private readonly llm: LLM,
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
        { method: 'POST', path: '/chat', auth: true, body: '{ message, history? }' },
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

  /** `{ message, history? }` → `{ response }`; the client keeps the history. */
  @Route('/chat', { methods: ['POST'] })
  async chat(
    @Arg('message', { maxLength: 20_000 }) message: string,
    @Arg('history', { default: [], maxLength: 100 }) history: unknown[],
  ) {
    const response = await this.llm.chat(message, { history: checkHistory(history) });
    return { response };
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
