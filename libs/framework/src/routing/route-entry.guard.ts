import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import type { ServerResponse } from 'node:http';
import { enterRoute, type RoutedRequest } from './bind-request.js';
import { routeInfo } from './route-info.js';

/**
 * Enters a toolkit route whose method declares no toolkit parameter (no `@Arg`, which would
 * enter it when Nest reads the parameter): the 405 check of a route that answers several methods,
 * the check of its `params`, and the mark that makes the adapter's reply apply toolkit's return
 * rules. `@Route` adds it to such a method with `@UseGuards()`, so it runs after the guards of the
 * application and of the controller: a request they refuse gets their answer, not a 405. A
 * stream route is entered by its own interceptor (a resume does not check parameters), so the
 * guard leaves it to it.
 */
@Injectable()
export class RouteEntryGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    if (context.getType() !== 'http') return true;
    const handler = context.getHandler();
    if (routeInfo(handler)?.stream) return true;
    enterRoute(
      context.getArgByIndex<RoutedRequest>(0),
      context.getArgByIndex<ServerResponse>(1),
      handler,
    );
    return true;
  }
}
