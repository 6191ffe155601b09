import {
  Inject,
  Injectable,
  Optional,
  type CanActivate,
  type ExecutionContext,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { MemoryCacheStore } from '../../../providers/src/index.js';
import { standaloneConfig } from '../config/config-defaults.js';
import type { ToolkitConfig } from '../config/toolkit-config.interface.js';
import { platformOfResponse } from '../http/platform/platform-of.js';
import { routeInfo } from '../routing/route-info.js';
import { SessionPipe } from '../session/session.decorator.js';
import { reconnectsAfterEnd, resumesStream } from '../sse/stream-position.js';
import { RATE_LIMIT_METADATA, TOOLKIT_CONFIG } from '../toolkit.constants.js';
import { clientAddress, type AddressedRequest } from './client-address.js';
import type { RateLimitOptions } from './rate-limit.decorator.js';
import { RateCounter } from './rate-counter.js';
import { RateLimiter, type HeaderSetter } from './rate-limiter.js';

type GuardedRequest = AddressedRequest &
  Parameters<SessionPipe['transform']>[0]['req'] & { [COUNTED]?: true };

/** Marks a request already counted: `@RateLimit()` on a class and its method runs the guard twice. */
const COUNTED = Symbol('toolkit:rate-limited');

/**
 * The guard behind `@RateLimit()`: counts the request against its caller (the `@Session()`
 * identity: `user:<id>` behind an authentication guard, else the session cookie, issued here when
 * the request has none) and its client address, with the route's options over `limits.*`. The
 * resumption of a resumable stream (`Last-Event-ID`) is not counted: it reads, it calls nothing.
 *
 * In a module that does not import `ToolkitModule` (a controller's unit test) it counts on its
 * own, in memory, with the configuration's defaults (see `standaloneConfig`).
 */
@Injectable()
export class RateLimitGuard implements CanActivate {
  private readonly sessions: SessionPipe;
  private readonly limiter: RateLimiter;
  private readonly config: ToolkitConfig;

  constructor(
    private readonly reflector: Reflector,
    @Optional() @Inject(RateLimiter) limiter?: RateLimiter,
    @Optional() @Inject(TOOLKIT_CONFIG) config?: ToolkitConfig,
  ) {
    this.config = config ?? standaloneConfig();
    this.limiter =
      limiter ??
      new RateLimiter(
        new RateCounter(new MemoryCacheStore({ maxEntries: this.config.cache.max_entries })),
      );
    this.sessions = new SessionPipe(this.config);
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (context.getType() !== 'http') return true;
    const options = this.reflector.getAllAndOverride<RateLimitOptions | false | undefined>(
      RATE_LIMIT_METADATA,
      [context.getHandler(), context.getClass()],
    );
    if (options === false || options === undefined) return true;
    const { limits } = this.config;
    const session = options.session ?? limits.session_requests;
    const address = options.address ?? limits.address_requests;
    if (session <= 0 && address <= 0) return true;
    const http = context.switchToHttp();
    const req = http.getRequest<GuardedRequest>();
    // Resuming a resumable stream reads what was produced, and the reconnect after a stream's end
    // is answered 204: neither calls a model, nor costs anything.
    if (req[COUNTED] === true || isResumption(context.getHandler(), req)) return true;
    req[COUNTED] = true;
    const reply = http.getResponse<HeaderSetter & object>();
    const bucket = options.bucket ?? 'default';
    const trackers = [
      { key: `${bucket}:ip:${clientAddress(req)}`, limit: address, who: 'this address' },
    ];
    if (session > 0) {
      const caller = this.sessions.transform({
        req,
        res: platformOfResponse(reply).rawResponse(reply),
      });
      // A digest: the counter's key may sit in Redis, and a session id is a credential.
      const digest = createHash('sha256').update(caller).digest('base64url').slice(0, 32);
      trackers.push({ key: `${bucket}:caller:${digest}`, limit: session, who: 'this session' });
    }
    await this.limiter.check(trackers, (options.window ?? limits.window) * 1000, reply);
    return true;
  }
}

function isResumption(handler: object, req: IncomingMessage): boolean {
  const stream = routeInfo(handler)?.stream;
  if (!stream) return false;
  return reconnectsAfterEnd(req) || (Boolean(stream.resumable) && resumesStream(req));
}
