import type { INestApplication } from '@nestjs/common';
import type express from 'express';
import type { NextFunction, Request, Response } from 'express';
import { lazyModule } from '../../../providers/src/support/lazy-module.js';
import { toErrorResponse } from './error-response.js';

/** express, required when the first app is configured (it comes with platform-express). */
const loadExpress = lazyModule<typeof express>('express');

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
  const { json, urlencoded } = loadExpress();
  app.use(json({ limit: limitBytes, type: ['application/json', 'application/*+json'] }));
  app.use(urlencoded({ extended: true, limit: limitBytes }));
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
