import {
  Catch,
  Inject,
  Logger,
  NotFoundException,
  type ArgumentsHost,
  type ExceptionFilter,
} from '@nestjs/common';
import type { Express, Request, Response } from 'express';
import { HttpAdapterHost } from '@nestjs/core';
import { MethodNotAllowedError, NotFoundError } from '../../../providers/src/errors/index.js';
import type { ToolkitConfig } from '../config/toolkit-config.interface.js';
import { TOOLKIT_CONFIG } from '../toolkit.constants.js';
import { allowedMethods } from './allowed-methods.js';
import { toErrorResponse } from './error-response.js';

/**
 * The one place errors become HTTP answers: every body is `{ "error": string, ... }`. An unknown
 * path is `404 { "error": "Not Found" }`; a known path with the wrong method is 405 with `Allow`;
 * 5xx answers are logged with their stack (never a secret: provider errors carry no keys).
 */
@Catch()
export class ToolkitExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('toolkit');

  constructor(
    @Inject(TOOLKIT_CONFIG) private readonly config: ToolkitConfig,
    private readonly adapterHost: HttpAdapterHost,
  ) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    if (host.getType() !== 'http') throw exception;
    const req = host.switchToHttp().getRequest<Request>();
    const res = host.switchToHttp().getResponse<Response>();
    if (res.headersSent) {
      this.logger.error(
        `Error after the response began (${req.method} ${req.originalUrl})`,
        stackOf(exception),
      );
      if (!res.writableEnded) res.end();
      return;
    }
    const { status, headers, body } = toErrorResponse(
      this.routerMiss(exception, req),
      this.config.app.debug,
    );
    if (status >= 500) {
      this.logger.error(
        `${req.method} ${req.originalUrl} → ${status}: ${messageOf(exception)}`,
        stackOf(exception),
      );
    }
    for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
    res.status(status).json(body);
  }

  /** Nest's own 404 for a path no route matched: 405 when another method would match. */
  private routerMiss(exception: unknown, req: Request): unknown {
    if (!(exception instanceof NotFoundException) || req.route !== undefined) return exception;
    const app = this.adapterHost.httpAdapter?.getInstance<Express>();
    const allowed = app ? allowedMethods(app, req.path) : [];
    return allowed.length > 0 ? new MethodNotAllowedError(allowed) : new NotFoundError();
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function stackOf(error: unknown): string | undefined {
  return error instanceof Error ? error.stack : undefined;
}
