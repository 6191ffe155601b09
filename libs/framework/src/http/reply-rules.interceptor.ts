import {
  Injectable,
  StreamableFile,
  type CallHandler,
  type ExecutionContext,
  type NestInterceptor,
} from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { map, type Observable } from 'rxjs';
import { routeInfo, type RouteInfo } from '../routing/route-info.js';
import type { HttpPlatform } from './platform/http-platform.js';
import { platformOf } from './platform/platform-of.js';
import { appliesToolkitReplies, replyStatus, splitTuple } from './reply-rules.js';

/**
 * Toolkit's return rules (see `replyByToolkitRules`) on an adapter of the application's own (Nest's
 * `ExpressAdapter` or `FastifyAdapter`), as a global interceptor that `ToolkitModule` adds: on a
 * toolkit route that does not stream, it sets the status and content type the rules give and
 * hands Nest's reply a value it sends that way (a Buffer as a `StreamableFile`, a JSON scalar as
 * its text). Plain Nest routes, streams and toolkit's own adapters (which apply the rules
 * themselves) pass through. Interceptors registered before it (outside it) see the value it
 * hands on, not the handler's.
 */
@Injectable()
export class ReplyRulesInterceptor implements NestInterceptor {
  /** The adapter's platform, or null when the adapter applies the rules itself. */
  private platform?: HttpPlatform | null;

  constructor(private readonly adapterHost: HttpAdapterHost) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const route = context.getType() === 'http' ? routeInfo(context.getHandler()) : undefined;
    const platform = route && !route.stream ? this.platformOrNull() : null;
    if (!route || !platform) return next.handle();
    const response = context.switchToHttp().getResponse<object>();
    return next.handle().pipe(map((result) => shapeReply(platform, response, route, result)));
  }

  private platformOrNull(): HttpPlatform | null {
    if (this.platform === undefined) {
      const adapter = this.adapterHost.httpAdapter as HttpAdapterHost['httpAdapter'] | undefined;
      this.platform = !adapter || appliesToolkitReplies(adapter) ? null : platformOf(adapter);
    }
    return this.platform;
  }
}

/**
 * Sets the status and content type toolkit's rules give `result` on `response`, and returns what
 * Nest's own reply sends as the rules say.
 */
export function shapeReply(
  platform: HttpPlatform,
  response: object,
  route: RouteInfo,
  result: unknown,
): unknown {
  if (platform.isAnswered(response)) return result;
  const [value, tupleStatus] = splitTuple(result);
  platform.rawResponse(response).statusCode = replyStatus(route, value, tupleStatus);
  if (value === undefined || value instanceof StreamableFile) return value;
  if (typeof value === 'string') {
    defaultType(platform, response, 'text/plain; charset=utf-8');
    return value;
  }
  if (Buffer.isBuffer(value))
    return new StreamableFile(value, { type: 'application/octet-stream' });
  if (typeof value === 'object' && value !== null) return value; // JSON, by Nest's reply
  defaultType(platform, response, 'application/json; charset=utf-8');
  return JSON.stringify(value); // a number, boolean or null, which Nest would send as text
}

function defaultType(platform: HttpPlatform, response: object, type: string): void {
  if (!platform.getHeader(response, 'Content-Type'))
    platform.setHeader(response, 'Content-Type', type);
}
