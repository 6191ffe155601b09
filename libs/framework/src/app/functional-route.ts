import type { Request, Response } from 'express';
import type { HttpMethod } from '../routing/http-method.js';
import type { ParamsDeclaration, ParamsOf } from '../routing/param-spec.js';
import type { CacheOptions } from '../cache/cache.decorator.js';
import type { StreamOptions } from '../routing/stream.decorator.js';

/** What a functional handler gets besides its parameters. */
export interface RouteContext {
  /**
   * The request (headers, body, ...): Express's, or on `platform: fastify` Fastify's request
   * (whose `raw` is the Node request).
   */
  req: Request;
  /**
   * The response, only needed for custom headers: `res.setHeader(name, value)` works on both
   * platforms. Express's response, or on `platform: fastify` the Node response under Fastify's
   * reply (Express's helpers such as `res.json()` are not there).
   */
  res: Response;
  /** Fires when the client goes away; pass it on to `llm.chat(..., { signal })`. */
  signal: AbortSignal;
}

/** Options of `app.route()`. */
export interface FunctionalRouteOptions<D extends ParamsDeclaration = ParamsDeclaration> {
  /** Methods the route answers. @default ['GET'] */
  methods?: readonly (HttpMethod | Lowercase<HttpMethod>)[];
  /** Declared parameters, checked before the handler runs (422 naming each bad one). */
  params?: D;
  /** Answer with Server-Sent Events (`true` or stream options). */
  stream?: boolean | StreamOptions;
  /** Cache the result (`true` uses `cache.ttl`); see `@Cache`. */
  cache?: boolean | CacheOptions;
  /** One-line summary for the OpenAPI document. */
  summary?: string;
}

/** A functional handler: one object of parameters in, a toolkit return value out. */
export type FunctionalHandler<D extends ParamsDeclaration> = (
  params: ParamsDeclaration extends D ? Record<string, unknown> : ParamsOf<D>,
  context: RouteContext,
) => unknown;

/** One registered `app.route()`. */
export interface FunctionalRouteDefinition {
  path: string;
  options: FunctionalRouteOptions;
  handler: FunctionalHandler<ParamsDeclaration>;
}
