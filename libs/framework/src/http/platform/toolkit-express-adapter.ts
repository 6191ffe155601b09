import { ExpressAdapter } from '@nestjs/platform-express';
import { replyByToolkitRules, TOOLKIT_REPLIES, type AdapterReply } from '../reply-rules.js';
import { EXPRESS_PLATFORM } from './express.platform.js';

/**
 * Nest's `ExpressAdapter` with toolkit's return rules for toolkit routes (`@Route`, `@Stream`,
 * `app.route`): a `[body, status]` tuple sets the status, a string is `text/plain`, `undefined`
 * is a 204, a Buffer is `application/octet-stream`, anything else is JSON with 200 even for POST
 * (`@HttpCode()` replaces the 200/204 defaults). Every other route, and every error reply, is
 * Nest's own. `App` runs on it; pass it to `NestFactory.create` in an application of your own:
 * without it, `ToolkitModule` applies the same rules with an interceptor (see
 * `ToolkitModuleExtras.adapterReplies`).
 *
 * @example
 * import { ToolkitExpressAdapter } from 'toolkit/express';
 * const app = await NestFactory.create(AppModule, new ToolkitExpressAdapter());
 */
export class ToolkitExpressAdapter extends ExpressAdapter {
  /** Read by `ToolkitModule`: this adapter applies the return rules itself. */
  readonly [TOOLKIT_REPLIES] = true;

  private readonly nestReply: AdapterReply = (response, body, statusCode) =>
    super.reply(response, body, statusCode);

  /** Nest's reply, with toolkit's return rules on toolkit routes. */
  override reply(response: object, body: unknown, statusCode?: number): unknown {
    return replyByToolkitRules(EXPRESS_PLATFORM, response, body, statusCode, this.nestReply);
  }
}
