import type { Express } from 'express';
import type { IncomingMessage, ServerResponse } from 'node:http';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

interface ExpressLike {
  request: object;
  response: object;
  handle(req: IncomingMessage, res: ServerResponse, next?: () => void): void;
}

const shadows = new WeakMap<object, Handler>();

/**
 * A stand-in for an Express app that light-my-request can drive without touching the real one.
 * light-my-request makes Express requests injectable by re-parenting the prototype EVERY Express
 * app in the process shares, which breaks real servers afterwards (`req._dump is not a
 * function`). The shadow inherits everything from the app (router, settings, middleware) but has
 * its own request/response prototypes, so that change stays inside the test client and the same
 * app can still serve real sockets.
 */
export function injectableExpress(app: Express): Handler {
  const existing = shadows.get(app);
  if (existing) return existing;
  const real = app as unknown as ExpressLike;
  const shadow = function (req: IncomingMessage, res: ServerResponse): void {
    (shadow as unknown as ExpressLike).handle(req, res);
  };
  Object.setPrototypeOf(shadow, app);
  for (const name of ['request', 'response'] as const) {
    const shared = Object.getPrototypeOf(real[name]) as object;
    const copy = Object.create(
      Object.getPrototypeOf(shared) as object,
      Object.getOwnPropertyDescriptors(shared),
    ) as object;
    Object.defineProperty(shadow, name, {
      value: Object.create(copy, {
        app: { value: shadow, enumerable: true, configurable: true, writable: true },
      }),
    });
  }
  shadows.set(app, shadow);
  return shadow;
}
