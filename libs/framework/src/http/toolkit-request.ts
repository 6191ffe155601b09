import { replyRouteOf } from '../routing/bind-request.js';
import { routeInfo } from '../routing/route-info.js';
import type { HttpPlatform } from './platform/http-platform.js';

/**
 * True when the request was routed to a toolkit route (`@Route`, `@Stream`, `@Arg`,
 * `app.route`), also before binding ran, e.g. when a guard refused it: Nest copies a handler's
 * metadata onto the function it registers with the platform, which the matched route holds.
 */
export function isToolkitRequest(platform: HttpPlatform, req: object, res: object): boolean {
  if (replyRouteOf(res)) return true;
  const handle = platform.routeHandler(req);
  return handle !== undefined && routeInfo(handle) !== undefined;
}
