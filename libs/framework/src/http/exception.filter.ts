import {
  Catch,
  Inject,
  Logger,
  NotFoundException,
  type ArgumentsHost,
  type ExceptionFilter,
} from '@nestjs/common';
import { BaseExceptionFilter, HttpAdapterHost } from '@nestjs/core';
import { MethodNotAllowedError, NotFoundError } from './http.errors.js';
import { ToolkitError } from '../../../providers/src/internal.js';
import { reportFailure } from '../telemetry/request-failure.js';
import type { ToolkitConfig } from '../config/toolkit-config.interface.js';
import {
  TOOLKIT_MODULE_OPTIONS,
  type ToolkitModuleOptions,
} from '../module/toolkit.module-definition.js';
import { TOOLKIT_CONFIG } from '../toolkit.constants.js';
import { logFailure } from './log-failure.js';
import { toErrorResponse } from './error-response.js';
import type { HttpPlatform } from './platform/http-platform.js';
import { platformOfResponse } from './platform/platform-of.js';
import { isToolkitRequest } from './toolkit-request.js';

/** What the filter reads of a request, on either platform. */
interface HttpRequest {
  method?: string;
  originalUrl?: string;
  url?: string;
}

/**
 * Where errors become toolkit's HTTP answers: `{ "error": string, ... }`, with the status and
 * headers (`Retry-After`, `Allow`, ...) of toolkit errors; 5xx answers are logged: a toolkit
 * error (a backend down) in one line, its stack at debug level, any other error with its stack
 * (never a secret: provider errors carry no keys). It answers for toolkit routes and
 * toolkit errors; every other error gets Nest's default answer, so a host application's own
 * routes keep their bodies — unless `ToolkitModule.forRoot({ errors: 'all' })` (what `App` uses),
 * where every route answers toolkit's way and an unknown path is `404 { "error": "Not Found" }`
 * or, for a known path with the wrong method, 405 with `Allow`.
 *
 * It catches everything, so it is meant to be the first global filter registered, the last Nest
 * tries: method and controller filters come before any global one, and Nest tries global filters
 * last-registered first, so a global filter of yours registered after it (`useGlobalFilters`, an
 * `APP_FILTER` in `App`'s `providers` or in a module imported after `ToolkitModule`) gets what
 * its `@Catch()` names. It never looks for other filters itself: what it catches, it answers.
 */
@Catch()
export class ToolkitExceptionFilter extends BaseExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('toolkit');

  constructor(
    @Inject(TOOLKIT_CONFIG) private readonly config: ToolkitConfig,
    @Inject(TOOLKIT_MODULE_OPTIONS) private readonly options: ToolkitModuleOptions,
    private readonly adapterHost: HttpAdapterHost,
  ) {
    super();
  }

  override catch(exception: unknown, host: ArgumentsHost): unknown {
    // Budget refusals and backends down are counted here, where toolkit answers them; one that a
    // filter of yours catches first is yours to count.
    reportFailure(exception);
    if (host.getType() !== 'http') throw exception;
    const req = host.switchToHttp().getRequest<HttpRequest>();
    const res = host.switchToHttp().getResponse<object>();
    const platform = platformOfResponse(res);
    const ours =
      this.options.errors === 'all' ||
      ToolkitError.isInstance(exception) ||
      isToolkitRequest(platform, req, res);
    if (!ours) {
      super.catch(exception, host);
      return undefined;
    }
    const url = req.originalUrl ?? req.url;
    if (platform.isAnswered(res)) {
      this.logger.error(
        `Error after the response began (${req.method} ${url})`,
        stackOf(exception),
      );
      const raw = platform.rawResponse(res);
      if (!raw.writableEnded) raw.end();
      return undefined;
    }
    const { status, headers, body } = toErrorResponse(
      this.routerMiss(exception, platform, req),
      this.config.app.debug,
    );
    if (status >= 500) this.logFailure(`${req.method} ${url} → ${status}`, exception);
    for (const [name, value] of Object.entries(headers)) platform.setHeader(res, name, value);
    platform.sendJson(res, status, body);
    return undefined;
  }

  /**
   * A toolkit error (a backend down, a provider failing) is expected: one line, its message
   * naming the backend and its address, with the stack at debug level. Anything else is a bug,
   * logged with its stack.
   */
  private logFailure(what: string, exception: unknown): void {
    logFailure(this.logger, what, exception);
  }

  /** Nest's own 404 for a path no route matched: 405 when another method would match. */
  private routerMiss(exception: unknown, platform: HttpPlatform, req: object): unknown {
    if (!(exception instanceof NotFoundException) || platform.routePath(req) !== undefined) {
      return exception;
    }
    const app = this.adapterHost.httpAdapter?.getInstance<unknown>();
    const allowed = app ? platform.allowedMethods(app, platform.requestPath(req)) : [];
    return allowed.length > 0 ? new MethodNotAllowedError(allowed) : new NotFoundError();
  }
}

function stackOf(error: unknown): string | undefined {
  return error instanceof Error ? error.stack : undefined;
}
