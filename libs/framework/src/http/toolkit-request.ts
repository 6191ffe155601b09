import type { Request, Response } from 'express';
import { replyRouteOf } from '../routing/bind-request.js';
import { routeInfo } from '../routing/route-info.js';

interface RouteLayer {
  handle?: object;
}

/**
 * True when the request was routed to a toolkit route (`@Route`, `@Stream`, `@Arg`,
 * `app.route`), also before binding ran, e.g. when a guard refused it: Nest copies a handler's
 * metadata onto the function it registers with Express, which is the matched route's layer.
 */
export function isToolkitRequest(req: Request, res: Response): boolean {
  if (replyRouteOf(res)) return true;
  const layers = (req.route as { stack?: RouteLayer[] } | undefined)?.stack;
  const handle = layers?.[0]?.handle;
  return handle !== undefined && routeInfo(handle) !== undefined;
}
