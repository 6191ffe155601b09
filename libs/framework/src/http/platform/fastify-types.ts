import type { IncomingMessage, ServerResponse } from 'node:http';

/** The parts of Fastify's request toolkit reads (typed here: fastify is an optional peer). */
export interface FastifyRequestLike {
  raw: IncomingMessage & { body?: unknown };
  body?: unknown;
  url: string;
  routeOptions?: { url?: string; handler?: object };
  is404?: boolean;
}

/** The parts of Fastify's reply toolkit uses. */
export interface FastifyReplyLike {
  raw: ServerResponse;
  request: FastifyRequestLike;
  sent: boolean;
  code(status: number): FastifyReplyLike;
  header(name: string, value: unknown): FastifyReplyLike;
  getHeader(name: string): unknown;
  getHeaders(): Record<string, unknown>;
  send(body?: unknown): FastifyReplyLike;
  hijack(): FastifyReplyLike;
  callNotFound(): void;
}

export type ContentTypeParser = (
  request: FastifyRequestLike,
  payload: IncomingMessage,
  done: (error: Error | null, body?: unknown) => void,
) => void;

/** An error of Fastify's router, answered before any route or hook runs. */
export interface FrameworkError extends Error {
  code?: string;
  statusCode?: number;
}

/** The request `frameworkErrors` gets (its params and query are not parsed yet). */
export interface FrameworkRequest {
  method: string;
  url: string;
  server: FastifyLike;
}

/** The parts of a Fastify instance toolkit uses. */
export interface FastifyLike {
  supportedMethods?: readonly string[];
  findRoute(options: { method: string; url: string }): unknown;
  removeAllContentTypeParsers(): void;
  addContentTypeParser(type: string, parser: ContentTypeParser): void;
  addHook(
    name: 'preValidation' | 'onRequest' | 'preHandler',
    hook: (request: FastifyRequestLike, reply: object, done: (error?: Error) => void) => void,
  ): void;
  ready(): PromiseLike<unknown>;
  routing(req: IncomingMessage, res: ServerResponse): void;
}
