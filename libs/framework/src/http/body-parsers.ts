import type { INestApplication } from '@nestjs/common';
import { platformOf } from './platform/platform-of.js';

/**
 * Installs toolkit's JSON and form body parsers with a size limit, answering a malformed JSON
 * body with `400 { error }` and an oversized one with `413 { error }` stating the limit, the same
 * on Express and Fastify. `App` does this itself; an existing Nest app created with
 * `{ bodyParser: false }` can call it before `init()`. On Fastify every other content type
 * (`multipart/form-data` included) is left unread for the route, as on Express.
 *
 * @example
 * const app = await NestFactory.create(AppModule, { bodyParser: false });
 * installBodyParsers(app, 1024 * 1024);
 */
export function installBodyParsers(app: INestApplication, limitBytes: number): void {
  platformOf(app.getHttpAdapter()).installBodyParsers(app, limitBytes);
}
