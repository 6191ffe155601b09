import type { Express } from 'express';

interface RouteLayer {
  route?: { methods: Record<string, boolean> };
  match(path: string): unknown;
}

/**
 * Methods that Express routes registered on `app` accept for `path`; empty when none matches.
 * Used to turn a 404 on a known path into a 405 with an `Allow` header.
 */
export function allowedMethods(app: Express, path: string): string[] {
  const stack = (app as unknown as { router?: { stack?: RouteLayer[] } }).router?.stack ?? [];
  const methods = new Set<string>();
  for (const layer of stack) {
    if (!layer.route || !layer.match(path)) continue;
    for (const [method, on] of Object.entries(layer.route.methods)) {
      if (on && method !== '_all') methods.add(method.toUpperCase());
    }
  }
  if (methods.has('GET')) methods.add('HEAD');
  return [...methods].sort();
}
