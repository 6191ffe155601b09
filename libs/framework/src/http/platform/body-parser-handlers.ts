import type bodyParser from 'body-parser';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { lazyModule } from '../../../../providers/src/internal.js';

/**
 * body-parser, the parsers behind `express.json()` and `express.urlencoded()`: a dependency of
 * toolkit of its own, so an app on Fastify installs no express.
 */
const loadBodyParser = lazyModule<typeof bodyParser>('body-parser');

/** A connect-style body parser: reads the raw request and sets `body` on it. */
export type BodyParserHandler = (
  req: IncomingMessage,
  res: ServerResponse,
  next: (error?: unknown) => void,
) => void;

/**
 * The body parsers toolkit runs on every platform: Express's own (body-parser), limited to
 * `limitBytes`. Fastify runs the same ones on its raw request, so both answer bad bodies alike.
 */
export function bodyParsers(limitBytes: number): BodyParserHandler[] {
  const parsers = loadBodyParser();
  return [
    parsers.json({ limit: limitBytes, type: ['application/json', 'application/*+json'] }),
    parsers.urlencoded({ extended: true, limit: limitBytes }),
  ];
}
