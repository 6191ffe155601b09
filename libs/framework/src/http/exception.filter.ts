import {
  Catch,
  Inject,
  Logger,
  NotFoundException,
  type ArgumentsHost,
  type ExceptionFilter,
} from '@nestjs/common';
import { BaseExceptionFilter, HttpAdapterHost, ModuleRef } from '@nestjs/core';
import type { Express, Request, Response } from 'express';
import { MethodNotAllowedError, NotFoundError } from './http.errors.js';
import { ToolkitError } from '../../../providers/src/errors/toolkit.error.js';
import type { ToolkitConfig } from '../config/toolkit-config.interface.js';
import {
  TOOLKIT_MODULE_OPTIONS,
  type ToolkitModuleOptions,
} from '../module/toolkit.module-definition.js';
import { TOOLKIT_CONFIG } from '../toolkit.constants.js';
import { allowedMethods } from './allowed-methods.js';
import { earlierGlobalFilter } from './earlier-filters.js';
import { toErrorResponse } from './error-response.js';
import { isToolkitRequest } from './toolkit-request.js';

/**
 * Where errors become toolkit's HTTP answers: `{ "error": string, ... }`, with the status and
 * headers (`Retry-After`, `Allow`, ...) of toolkit errors; 5xx answers are logged with their
 * stack (never a secret: provider errors carry no keys). It answers for toolkit routes and
 * toolkit errors; every other error gets Nest's default answer, so a host application's own
 * routes keep their bodies — unless `ToolkitModule.forRoot({ errors: 'all' })` (what `App` uses),
 * where every route answers toolkit's way and an unknown path is `404 { "error": "Not Found" }`
 * or, for a known path with the wrong method, 405 with `Allow`. Any filter of yours catching an
 * exception wins over it: method and controller filters come first in Nest, global ones you add
 * with `useGlobalFilters` too, and toolkit hands over to an `APP_FILTER` of yours registered
 * before it.
 */
@Catch()
export class ToolkitExceptionFilter extends BaseExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('toolkit');

  constructor(
    @Inject(TOOLKIT_CONFIG) private readonly config: ToolkitConfig,
    @Inject(TOOLKIT_MODULE_OPTIONS) private readonly options: ToolkitModuleOptions,
    private readonly adapterHost: HttpAdapterHost,
    private readonly moduleRef: ModuleRef,
  ) {
    super();
  }

  override catch(exception: unknown, host: ArgumentsHost): unknown {
    const yours = earlierGlobalFilter(this.moduleRef, this, exception);
    if (yours) return yours.catch(exception, host);
    if (host.getType() !== 'http') throw exception;
    const req = host.switchToHttp().getRequest<Request>();
    const res = host.switchToHttp().getResponse<Response>();
    const ours =
      this.options.errors === 'all' ||
      ToolkitError.isInstance(exception) ||
      isToolkitRequest(req, res);
    if (!ours) {
      super.catch(exception, host);
      return undefined;
    }
    if (res.headersSent) {
      this.logger.error(
        `Error after the response began (${req.method} ${req.originalUrl})`,
        stackOf(exception),
      );
      if (!res.writableEnded) res.end();
      return undefined;
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
    return undefined;
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
