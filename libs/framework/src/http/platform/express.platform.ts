import type { INestApplication } from '@nestjs/common';
import type { Express, NextFunction, Request, Response } from 'express';
import type { ServerResponse } from 'node:http';
import { toErrorResponse } from '../error-response.js';
import { bodyParsers } from './body-parser-handlers.js';
import type { HttpPlatform, NodeHandler } from './http-platform.js';

interface ExpressRoute {
  path?: string;
  methods: Record<string, boolean>;
  stack?: { handle?: object }[];
}

interface RouteLayer {
  route?: ExpressRoute;
  match(path: string): unknown;
}

/**
 * The route that matched the request and handles its method. Express also matches a route
 * for a HEAD request it has no handler for (falling through to the 404), which is not routed.
 */
function handlingRoute(req: Request): ExpressRoute | undefined {
  const route = req.route as ExpressRoute | undefined;
  if (!route) return undefined;
  const method = req.method.toLowerCase();
  const { methods } = route;
  return methods[method] || methods._all || (method === 'head' && methods.get) ? route : undefined;
}

/** Toolkit on `@nestjs/platform-express`. */
export const EXPRESS_PLATFORM: HttpPlatform = {
  name: 'express',
  rawRequest: (req) => req as Request,
  rawResponse: (res) => res as ServerResponse,
  responseOf: (req) => (req as Request).res as object,
  requestOf: (res) => (res as Response).req,
  linkResponses() {
    // Express links them itself (`req.res`).
  },
  takeOver: (res) => res as ServerResponse,
  isAnswered: (res) => (res as Response).headersSent || (res as Response).writableEnded,
  setHeader: (res, name, value) => (res as Response).setHeader(name, value),
  getHeader: (res, name) => (res as Response).getHeader(name),
  send(res, status, body, type) {
    const response = res as Response;
    if (body === undefined) {
      response.status(status).end();
      return;
    }
    if (type && !response.getHeader('Content-Type')) response.setHeader('Content-Type', type);
    response.status(status).send(body);
  },
  sendJson: (res, status, value) => void (res as Response).status(status).json(value),
  routeHandler: (req) => handlingRoute(req as Request)?.stack?.[0]?.handle,
  routePath: (req) => handlingRoute(req as Request)?.path,
  requestPath: (req) => (req as Request).path,
  allowedMethods(instance, path) {
    const app = instance as { router?: { stack?: RouteLayer[] } } | undefined;
    const methods = new Set<string>();
    for (const layer of app?.router?.stack ?? []) {
      if (!layer.route || !layer.match(path)) continue;
      for (const [method, on] of Object.entries(layer.route.methods)) {
        if (on && method !== '_all') methods.add(method.toUpperCase());
      }
    }
    if (methods.has('GET')) methods.add('HEAD');
    return [...methods].sort();
  },
  installBodyParsers(nest, limitBytes) {
    for (const parser of bodyParsers(limitBytes)) nest.use(parser);
    nest.use((error: unknown, _req: Request, res: Response, next: NextFunction) => {
      if (res.headersSent) {
        next(error);
        return;
      }
      const { status, headers, body } = toErrorResponse(error, false);
      for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
      res.status(status).json(body);
    });
  },
  installSecurityHeaders(nest, headers) {
    (nest.getHttpAdapter().getInstance() as Express).disable('x-powered-by');
    const entries = Object.entries(headers);
    nest.use((_req: Request, res: Response, next: NextFunction) => {
      for (const [name, value] of entries) res.setHeader(name, value);
      next();
    });
  },
  addRequestHook(instance, _stage, hook) {
    (instance as Express).use((req: Request, res: Response, next: NextFunction) =>
      hook(req, res, next),
    );
  },
  trustProxy(nest: INestApplication) {
    (nest.getHttpAdapter().getInstance() as { set(name: string, value: unknown): void }).set(
      'trust proxy',
      true,
    );
  },
  nodeHandler: (instance) => Promise.resolve(instance as Express as NodeHandler),
};
