import { FastifyAdapter } from '@nestjs/platform-fastify';
import { replyByToolkitRules, TOOLKIT_REPLIES, type AdapterReply } from '../reply-rules.js';
import { FASTIFY_PLATFORM } from './fastify.platform.js';

/**
 * Nest's `FastifyAdapter` with toolkit's return rules for toolkit routes, as
 * `ToolkitExpressAdapter` applies them on Express. `App` runs on it with `app.platform: fastify`
 * (with routing options that match Express's); it takes `FastifyAdapter`'s options.
 *
 * @example
 * import { ToolkitFastifyAdapter } from 'toolkit/fastify';
 * const app = await NestFactory.create(AppModule, new ToolkitFastifyAdapter());
 */
export class ToolkitFastifyAdapter extends FastifyAdapter {
  /** Read by `ToolkitModule`: this adapter applies the return rules itself. */
  readonly [TOOLKIT_REPLIES] = true;

  private readonly nestReply: AdapterReply = (response, body, statusCode) =>
    super.reply(response as FastifyResponse, body, statusCode);

  /** Nest's reply, with toolkit's return rules on toolkit routes. */
  override reply(response: FastifyResponse, body: unknown, statusCode?: number): FastifyReply {
    const sent = replyByToolkitRules(FASTIFY_PLATFORM, response, body, statusCode, this.nestReply);
    // Fastify's own `reply` returns the reply (which Nest awaits; a reply sent already resolves
    // at once): so does an answer toolkit sent.
    return (sent ?? response) as FastifyReply;
  }
}

type FastifyResponse = Parameters<FastifyAdapter['reply']>[0];
type FastifyReply = ReturnType<FastifyAdapter['reply']>;
