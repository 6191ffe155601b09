import type { Express } from 'express';

const ISOLATED = Symbol.for('toolkit:isolated-express');

type Isolatable = Express & { request: object; response: object; [ISOLATED]?: true };

/**
 * light-my-request makes Express requests injectable by re-parenting the prototype that EVERY
 * Express app in the process shares, which breaks real servers afterwards (`req._dump is not a
 * function`). Giving this app private copies of Express's request/response objects first confines
 * that change to the app under test.
 */
export function isolateExpressPrototypes(app: Express): Express {
  const target = app as Isolatable;
  if (target[ISOLATED]) return app;
  for (const name of ['request', 'response'] as const) {
    const shared = Object.getPrototypeOf(target[name]) as object;
    const copy = Object.create(
      Object.getPrototypeOf(shared) as object,
      Object.getOwnPropertyDescriptors(shared),
    ) as object;
    Object.setPrototypeOf(target[name], copy);
  }
  Object.defineProperty(target, ISOLATED, { value: true });
  return app;
}
