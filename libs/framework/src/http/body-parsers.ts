import type { INestApplication } from '@nestjs/common';
import express, { type NextFunction, type Request, type Response } from 'express';
import { toErrorResponse } from './error-response.js';

/**
 * Installs toolkit's JSON and form body parsers with a size limit, plus an error handler right
 * behind them so malformed JSON is a `400 { error }` and an oversized body a `413 { error }`
 * stating the limit. `App` does this itself; an existing Nest app created with
 * `{ bodyParser: false }` can call it before `init()`.
 *
 * @example
 * const app = await NestFactory.create(AppModule, { bodyParser: false });
 * installBodyParsers(app, 1024 * 1024);
 */
export function installBodyParsers(app: INestApplication, limitBytes: number): void {
  app.use(express.json({ limit: limitBytes, type: ['application/json', 'application/*+json'] }));
  app.use(express.urlencoded({ extended: true, limit: limitBytes }));
  app.use((error: unknown, _req: Request, res: Response, next: NextFunction) => {
    if (res.headersSent) {
      next(error);
      return;
    }
    const { status, headers, body } = toErrorResponse(error, false);
    for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
    res.status(status).json(body);
  });
}
