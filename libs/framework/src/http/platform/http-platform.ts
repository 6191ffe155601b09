import type { INestApplication } from '@nestjs/common';
import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * Where a request hook runs: `start` as the request arrives, before any other hook, body
 * parsing included; `route` just before the route's guards and handler, after body parsing.
 */
export type RequestHookStage = 'start' | 'route';

/** A request hook: the platform's request and response, and what to call to go on. */
export type RequestHook = (req: object, res: object, next: () => void) => void;

/** The HTTP servers toolkit runs on (config `app.platform`). */
export type PlatformName = 'express' | 'fastify';

/** A plain Node request handler, as serverless hosts and `http.createServer` take. */
export type NodeHandler = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * What toolkit needs from the HTTP platform under Nest, so that the reply path (errors, return
 * rules, SSE, `@Cache`, uploads, body parsing) is written once. `req` and `res` are the
 * platform's own objects, as Nest hands them to filters and interceptors: Express's request and
 * response, or Fastify's request and reply.
 */
export interface HttpPlatform {
  readonly name: PlatformName;
  /** The Node request under the platform's request. */
  rawRequest(req: object): IncomingMessage;
  /** The Node response under the platform's response. */
  rawResponse(res: object): ServerResponse;
  /**
   * The platform's response of a request (Express: `req.res`; Fastify: the reply, linked to its
   * request by {@link HttpPlatform.linkResponses}).
   */
  responseOf(req: object): object;
  /** The platform's request a response answers (Express: `res.req`; Fastify: `reply.request`). */
  requestOf(res: object): object;
  /** Makes {@link HttpPlatform.responseOf} work for every request of `nest` (before `init()`). */
  linkResponses(nest: INestApplication): void;
  /**
   * Hands the Node response over to code that writes it directly (an SSE stream): the platform
   * will not answer on its own any more, and headers already set on its response carry over.
   */
  takeOver(res: object): ServerResponse;
  /** True once the status line has gone out (nothing else can be answered). */
  isAnswered(res: object): boolean;
  /** Sets a response header. */
  setHeader(res: object, name: string, value: string | readonly string[]): void;
  /** A response header already set, if any. */
  getHeader(res: object, name: string): unknown;
  /** Answers `status` with `body` (none for `undefined`), with `type` unless a type is set. */
  send(res: object, status: number, body?: string | Buffer, type?: string): void;
  /** Answers `status` with `value` as JSON (`application/json; charset=utf-8`). */
  sendJson(res: object, status: number, value: unknown): void;
  /** The route handler the request was routed to (Nest copies its metadata onto it), if any. */
  routeHandler(req: object): object | undefined;
  /** The matched route's path pattern (`/items/:id`), if a route matched. */
  routePath(req: object): string | undefined;
  /** The request's path, without the query string. */
  requestPath(req: object): string;
  /** The methods that routes of `instance` accept for `path` (empty when none matches). */
  allowedMethods(instance: unknown, path: string): string[];
  /**
   * Toolkit's JSON and form body parsers limited to `limitBytes`: malformed JSON is a 400, a
   * body too large a 413 and an unsupported charset a 415, the same answers on every platform.
   */
  installBodyParsers(nest: INestApplication, limitBytes: number): void;
  /**
   * Sends `headers` on every answer of `nest` (set before its routes run, so a route may still
   * change them) and no `X-Powered-By`. Call before `init()`.
   */
  installSecurityHeaders(nest: INestApplication, headers: Readonly<Record<string, string>>): void;
  /**
   * Runs `hook` on every request of `instance` (the platform's app) at `stage`. On Express the
   * hooks run in the order they were added among the other middleware: add a `start` hook first
   * and a `route` hook after the body parsers. Call before `init()`, or from a module's
   * `configure()` (before the routes are registered).
   */
  addRequestHook(instance: unknown, stage: RequestHookStage, hook: RequestHook): void;
  /** Lets `req.ip`/`req.protocol` come from `X-Forwarded-*` headers (config `app.trust_proxy`). */
  trustProxy(nest: INestApplication): void;
  /** A Node request handler serving `instance` (the platform's app), ready to take requests. */
  nodeHandler(instance: unknown): Promise<NodeHandler>;
}
