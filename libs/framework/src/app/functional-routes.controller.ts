import { Controller, Req, type Type } from '@nestjs/common';
import type { Request, Response } from 'express';
import { platformOfRequest } from '../http/platform/platform-of.js';
import { Cache } from '../cache/cache.decorator.js';
import { bindRequest } from '../routing/bind-request.js';
import type { BoundValues } from '../routing/param-binder.js';
import { requestSignal } from '../routing/request-signal.js';
import { markBinding } from '../routing/route-params.decorator.js';
import { Route } from '../routing/route.decorator.js';
import { Stream } from '../routing/stream.decorator.js';
import type { FunctionalRouteDefinition, RouteContext } from './functional-route.js';

/**
 * Builds a real Nest controller from `app.route()` definitions: one method per route, decorated
 * with `@Route` (and `@Stream`), so functional routes go through exactly the same pipeline as
 * controller routes — guards, interceptors, binding, errors, SSE.
 */
export function buildFunctionalController(routes: readonly FunctionalRouteDefinition[]): Type {
  @Controller()
  class FunctionalRoutesController {}

  const prototype = FunctionalRoutesController.prototype as unknown as Record<string, unknown>;
  routes.forEach((route, index) => {
    const key = `${route.options.methods?.join('_') ?? 'GET'} ${route.path}#${index}`;
    // The method takes Nest's plain `@Req()` and binds itself: no custom parameter factory (and
    // its per-request execution context) on the hot path of a one-file app. Not `@Res()`, even
    // with passthrough: Nest then ends a streamed route's generator once its first client has
    // gone, which a resumable stream outlives. The request is the platform's (Express's or
    // Fastify's); its response comes from the platform.
    const handler = function (req: Request): unknown {
      const platform = platformOfRequest(req);
      const res = platform.responseOf(req) as Response;
      // The signal is built on first use: an AbortController per request costs more than the
      // rest of a small JSON route (measured in bench/), and most handlers never read it.
      // Express's response is a Node response; on Fastify the route gets the Node response
      // under the reply, so `res.setHeader()` works the same on both.
      const raw = platform.rawResponse(res) as Response;
      const context: RouteContext = {
        req,
        res: raw,
        get signal() {
          return requestSignal(req, raw);
        },
      };
      const params = bindRequest(req, res, handler);
      return params instanceof Promise
        ? params.then((values: BoundValues) => route.handler(values, context))
        : route.handler(params, context);
    };
    Object.defineProperty(handler, 'name', { value: `route${index}` });
    prototype[key] = handler;
    Reflect.defineMetadata('design:paramtypes', [Object], prototype, key);
    Req()(prototype, key, 0);
    markBinding(prototype, key);
    const descriptor = Object.getOwnPropertyDescriptor(prototype, key)!;
    Route(route.path, {
      ...(route.options.methods ? { methods: route.options.methods } : {}),
      ...(route.options.params ? { params: route.options.params } : {}),
      ...(route.options.summary ? { summary: route.options.summary } : {}),
    })(prototype, key, descriptor);
    if (route.options.cache) {
      Cache(route.options.cache === true ? {} : route.options.cache)(prototype, key, descriptor);
    }
    if (route.options.stream) {
      Stream(route.options.stream === true ? {} : route.options.stream)(prototype, key, descriptor);
    }
  });
  return FunctionalRoutesController;
}
