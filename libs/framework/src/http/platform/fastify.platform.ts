import type { IncomingMessage, ServerResponse } from 'node:http';
import { ToolkitError } from '../../../../providers/src/errors/toolkit.error.js';
import { toErrorResponse } from '../error-response.js';
import { BadRequestError, MethodNotAllowedError, NotFoundError } from '../http.errors.js';
import { bodyParsers } from './express.platform.js';
import type { HttpPlatform } from './http-platform.js';

/** The parts of Fastify's request toolkit reads (typed here: fastify is an optional peer). */
interface FastifyRequestLike {
  raw: IncomingMessage & { body?: unknown };
  body?: unknown;
  url: string;
  routeOptions?: { url?: string; handler?: object };
  is404?: boolean;
}

/** The parts of Fastify's reply toolkit uses. */
interface FastifyReplyLike {
  raw: ServerResponse;
  sent: boolean;
  code(status: number): FastifyReplyLike;
  header(name: string, value: unknown): FastifyReplyLike;
  getHeader(name: string): unknown;
  getHeaders(): Record<string, unknown>;
  send(body?: unknown): FastifyReplyLike;
  hijack(): FastifyReplyLike;
  callNotFound(): void;
}

type ContentTypeParser = (
  request: FastifyRequestLike,
  payload: IncomingMessage,
  done: (error: Error | null, body?: unknown) => void,
) => void;

/** An error of Fastify's router, answered before any route or hook runs. */
interface FrameworkError extends Error {
  code?: string;
  statusCode?: number;
}

/** The request `frameworkErrors` gets (its params and query are not parsed yet). */
interface FrameworkRequest {
  method: string;
  url: string;
  server: FastifyLike;
}

/** The parts of a Fastify instance toolkit uses. */
interface FastifyLike {
  supportedMethods?: readonly string[];
  findRoute(options: { method: string; url: string }): unknown;
  removeAllContentTypeParsers(): void;
  addContentTypeParser(type: string, parser: ContentTypeParser): void;
  addHook(
    name: 'preValidation',
    hook: (request: FastifyRequestLike, reply: object, done: (error?: Error) => void) => void,
  ): void;
  ready(): PromiseLike<unknown>;
  routing(req: IncomingMessage, res: ServerResponse): void;
}

const METHODS = ['DELETE', 'GET', 'HEAD', 'OPTIONS', 'PATCH', 'POST', 'PUT'];

const reply = (res: object): FastifyReplyLike => res as FastifyReplyLike;

/** Whether a request carries a body (what body-parser's `type-is` checks too). */
function hasBody(raw: IncomingMessage): boolean {
  return (
    raw.headers['transfer-encoding'] !== undefined || raw.headers['content-length'] !== undefined
  );
}

/** The path segments `decodeURIComponent` refuses. */
function undecodableSegments(path: string): Set<string> {
  const bad = new Set<string>();
  for (const segment of path.split('/')) {
    try {
      decodeURIComponent(segment);
    } catch {
      bad.add(segment);
    }
  }
  return bad;
}

/**
 * Answers the errors Fastify's router raises before routing (its `frameworkErrors` option) as
 * Express does: a malformed percent-encoding is a 400 naming the parameter it spoils when a
 * route matches the path, else the path matches nothing (404, or 405 with `Allow` when a route
 * of another method takes it). Any other
 * is answered with its status and toolkit's `{ error }` body.
 */
export function answerFrameworkError(
  error: FrameworkError,
  request: FrameworkRequest,
  res: object,
): void {
  if (error.code === 'FST_ERR_BAD_URL') {
    // Express decodes path parameters only: a bad segment a route's parameter takes is a 400,
    // anywhere else the path matches nothing. The router cannot look up an undecodable path,
    // so the bad segments stand in as plain text.
    const path = FASTIFY_PLATFORM.requestPath(request);
    const bad = undecodableSegments(path);
    const standIn = path
      .split('/')
      .map((segment) => (bad.has(segment) ? '_' : segment))
      .join('/');
    const [segment] = bad;
    const allowed = FASTIFY_PLATFORM.allowedMethods(request.server, standIn);
    answerError(
      res,
      segment !== undefined && request.server.findRoute({ method: request.method, url: standIn })
        ? new BadRequestError(`Failed to decode param '${segment}'`)
        : allowed.length > 0
          ? new MethodNotAllowedError(allowed)
          : new NotFoundError(),
    );
    return;
  }
  const status = error.statusCode && error.statusCode >= 400 ? error.statusCode : 400;
  answerError(res, new ToolkitError(error.message, { statusCode: status }));
}

function answerError(res: object, error: ToolkitError): void {
  const { status, headers, body } = toErrorResponse(error, false);
  for (const [name, value] of Object.entries(headers)) FASTIFY_PLATFORM.setHeader(res, name, value);
  FASTIFY_PLATFORM.sendJson(res, status, body);
}

/**
 * The Node response for an answer written by toolkit: Fastify's own once the reply is handed over
 * (see `takeOver`), else the reply, which then sends headers set on either.
 */
function answerRaw(
  res: FastifyReplyLike,
  status: number,
  type: string | undefined,
  body?: string | Buffer,
): void {
  const raw = res.raw;
  for (const [name, value] of Object.entries(res.getHeaders())) {
    if (value !== undefined && !raw.hasHeader(name)) raw.setHeader(name, value as string);
  }
  if (type && !raw.hasHeader('Content-Type')) raw.setHeader('Content-Type', type);
  raw.statusCode = status;
  raw.end(body);
}

/**
 * Toolkit on `@nestjs/platform-fastify`. Bodies go through the same body-parser as on Express,
 * run on the raw request from a catch-all content-type parser: JSON and forms are parsed with
 * the same limits and errors, any other type (multipart uploads included) is left unread for the
 * route, as Express leaves it.
 */
export const FASTIFY_PLATFORM: HttpPlatform = {
  name: 'fastify',
  rawRequest: (req) => (req as FastifyRequestLike).raw,
  rawResponse: (res) => reply(res).raw,
  takeOver(res) {
    const fastifyReply = reply(res);
    const raw = fastifyReply.raw;
    if (!fastifyReply.sent) {
      for (const [name, value] of Object.entries(fastifyReply.getHeaders())) {
        if (value !== undefined) raw.setHeader(name, value as string);
      }
      fastifyReply.hijack();
    }
    return raw;
  },
  isAnswered: (res) => reply(res).raw.headersSent || reply(res).raw.writableEnded,
  setHeader(res, name, value) {
    // A reply handed over (an SSE stream) sends the raw response's headers only.
    if (reply(res).sent) reply(res).raw.setHeader(name, value);
    else reply(res).header(name, value);
  },
  getHeader: (res, name) => reply(res).getHeader(name),
  send(res, status, body, type) {
    const fastifyReply = reply(res);
    if (fastifyReply.sent) {
      answerRaw(fastifyReply, status, body === undefined ? undefined : type, body);
      return;
    }
    if (body !== undefined) {
      // A type the route set on the Node response wins, as on Express; the reply's own header
      // carries it, since Fastify would otherwise send its default type over it.
      const chosen = fastifyReply.getHeader('Content-Type') ?? type;
      if (chosen !== undefined) fastifyReply.header('Content-Type', chosen);
    }
    fastifyReply.code(status).send(body);
  },
  sendJson(res, status, value) {
    // Serialized here, as Express does, so both platforms send the same bytes.
    FASTIFY_PLATFORM.send(res, status, JSON.stringify(value), 'application/json; charset=utf-8');
  },
  routeHandler: (req) => (req as FastifyRequestLike).routeOptions?.handler,
  routePath(req) {
    const request = req as FastifyRequestLike;
    return request.is404 ? undefined : request.routeOptions?.url;
  },
  requestPath(req) {
    const url = (req as FastifyRequestLike).url;
    const query = url.indexOf('?');
    return query === -1 ? url : url.slice(0, query);
  },
  allowedMethods(instance, path) {
    const fastify = instance as FastifyLike | undefined;
    if (!fastify) return [];
    const methods = (fastify.supportedMethods ?? METHODS).filter(
      (method) => fastify.findRoute({ method, url: path }) !== null,
    );
    return [...new Set(methods)].sort();
  },
  installBodyParsers(nest, limitBytes) {
    const fastify = nest.getHttpAdapter().getInstance() as FastifyLike;
    const [json, urlencoded] = bodyParsers(limitBytes);
    // body-parser reads (or leaves) the raw request and sets `body` on it; it never uses the
    // response.
    const parse = (raw: IncomingMessage, done: (error: Error | null, body?: unknown) => void) => {
      const stub = {} as never;
      json(raw as never, stub, (error?: unknown) => {
        if (error) done(error as Error);
        else
          urlencoded(raw as never, stub, (failure?: unknown) =>
            failure ? done(failure as Error) : done(null, (raw as { body?: unknown }).body),
          );
      });
    };
    fastify.removeAllContentTypeParsers();
    fastify.addContentTypeParser('*', (request, _payload, done) => parse(request.raw, done));
    // Fastify parses no GET or HEAD body; Express does (a bad one is a 400 there): so here too.
    fastify.addHook('preValidation', (request, _reply, done) => {
      const { raw } = request;
      if ((raw.method !== 'GET' && raw.method !== 'HEAD') || !hasBody(raw)) {
        done();
        return;
      }
      parse(raw, (error, body) => {
        if (!error) request.body = body;
        done(error ?? undefined);
      });
    });
  },
  trustProxy() {
    // Fastify takes `trustProxy` when it is created: `App` passes it to the adapter.
  },
  async nodeHandler(instance) {
    const fastify = instance as FastifyLike;
    await fastify.ready();
    return (req, res) => fastify.routing(req, res);
  },
};
