import {
  Inject,
  Injectable,
  Optional,
  type CallHandler,
  type ExecutionContext,
  type NestInterceptor,
  type OnModuleDestroy,
} from '@nestjs/common';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { from, lastValueFrom, type Observable } from 'rxjs';
import { standaloneConfig } from '../config/config-defaults.js';
import type { ToolkitConfig } from '../config/toolkit-config.interface.js';
import { platformOfResponse } from '../http/platform/platform-of.js';
import { bindRequest } from '../routing/bind-request.js';
import { routeInfo } from '../routing/route-info.js';
import { TOOLKIT_CONFIG } from '../toolkit.constants.js';
import type { CacheOptions } from './cache.decorator.js';
import { RouteCache, type CachedResponse } from './route-cache.js';

/**
 * The interceptor behind `@Cache` on a route that answers one value (see there for the
 * behaviour). Outside the method's own interceptors. It keys entries by the request's bound
 * parameters, so a request with bad parameters is answered 422 before anything is read or stored.
 * On a `@Stream()` route it lets everything through: the stream's own pipeline records and
 * replays the chunks (see `StreamInterceptor`), around this interceptor and the method's.
 *
 * In a module that does not import `ToolkitModule` (a controller's unit test) it runs on its own:
 * the configuration's defaults (see `standaloneConfig`) and an in-memory store of its own, so
 * each compiled testing module starts with an empty cache.
 */
@Injectable()
export class CacheInterceptor implements NestInterceptor, OnModuleDestroy {
  private readonly cache: RouteCache;
  /** True when the cache is this interceptor's own (no `ToolkitModule`), closed with it. */
  private readonly ownsCache: boolean;

  constructor(
    @Optional() @Inject(RouteCache) cache?: RouteCache,
    @Optional() @Inject(TOOLKIT_CONFIG) config?: ToolkitConfig,
  ) {
    this.ownsCache = cache === undefined;
    this.cache = cache ?? RouteCache.standalone(config ?? standaloneConfig());
  }

  /** Closes the store when it is this interceptor's own; `ToolkitModule` closes its own. */
  async onModuleDestroy(): Promise<void> {
    if (this.ownsCache) await this.cache.close();
  }

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const handler = context.getHandler();
    const options = this.cache.optionsOf(handler);
    if (!options || context.getType() !== 'http' || routeInfo(handler)?.stream) {
      return next.handle();
    }
    const req = context.switchToHttp().getRequest<IncomingMessage>();
    const reply = context.switchToHttp().getResponse<object>();
    const res: CachedResponse = { platform: platformOfResponse(reply), reply };
    const bound = bindRequest(req, reply as ServerResponse, handler);
    return from(
      bound instanceof Promise
        ? bound.then((params) => this.serve(params, options, req, res, next))
        : this.serve(bound, options, req, res, next),
    );
  }

  private serve(
    params: Record<string, unknown>,
    options: CacheOptions,
    req: IncomingMessage,
    res: CachedResponse,
    next: CallHandler,
  ): Promise<unknown> {
    const run = (): Promise<unknown> => lastValueFrom(next.handle(), { defaultValue: undefined });
    const key = this.cache.keyOf(req, res.platform, params, options);
    if (key === undefined) return run();
    return this.cache.value(key, this.cache.ttlOf(options), res, run);
  }
}
