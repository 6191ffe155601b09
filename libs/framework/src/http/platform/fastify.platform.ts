import type { IncomingMessage } from 'node:http';
import { bodyParsers } from './body-parser-handlers.js';
import type {
  ContentTypeParser,
  FastifyLike,
  FastifyReplyLike,
  FastifyRequestLike,
} from './fastify-types.js';
import type { HttpPlatform } from './http-platform.js';
import { plainJsonLength, readPlainJson } from './plain-json-body.js';

const METHODS = ['DELETE', 'GET', 'HEAD', 'OPTIONS', 'PATCH', 'POST', 'PUT'];

/** Where a request keeps its reply (Fastify's request does not know it). */
const REPLY = Symbol('toolkit:reply');

const reply = (res: object): FastifyReplyLike => res as FastifyReplyLike;

/** Whether a request carries a body (what body-parser's `type-is` checks too). */
function hasBody(raw: IncomingMessage): boolean {
  return (
    raw.headers['transfer-encoding'] !== undefined || raw.headers['content-length'] !== undefined
  );
}

/** A plain object or an array: what Fastify serializes exactly as `JSON.stringify`. */
function isPlainJson(value: unknown): value is object {
  if (Array.isArray(value)) return true;
  if (typeof value !== 'object' || value === null) return false;
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/**
 * Answers on the Node response of a reply handed over (see `takeOver`) before anything was
 * written, e.g. a stream that failed before its first event: Fastify no longer sends it, so the
 * headers set on the reply go out with it here.
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
  if (body !== undefined) raw.setHeader('Content-Length', Buffer.byteLength(body));
  raw.statusCode = status;
  raw.end(body);
}

/**
 * Toolkit on `@nestjs/platform-fastify`. Bodies are read from a catch-all content-type parser:
 * a plain JSON body by `readPlainJson` (body-parser's rules and messages, without its
 * per-request work), every other JSON or form body by the same body-parser as on Express, run on
 * the raw request, so both platforms give the same limits and errors; any other type (multipart
 * uploads included) is left unread for the route, as Express leaves it.
 */
export const FASTIFY_PLATFORM: HttpPlatform = {
  name: 'fastify',
  rawRequest: (req) => (req as FastifyRequestLike).raw,
  rawResponse: (res) => reply(res).raw,
  responseOf(req) {
    const linked = (req as { [REPLY]?: object })[REPLY];
    if (!linked) throw new Error('toolkit: the Fastify reply of this request is not linked');
    return linked;
  },
  requestOf: (res) => reply(res).request,
  linkResponses(nest) {
    const fastify = nest.getHttpAdapter().getInstance() as FastifyLike;
    fastify.addHook('onRequest', (request, replyOf, done) => {
      (request as { [REPLY]?: object })[REPLY] = replyOf;
      done();
    });
  },
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
    const fastifyReply = reply(res);
    // A plain object or array with no type set: Fastify's own JSON path (JSON.stringify and
    // `application/json; charset=utf-8`, the bytes Express sends) without a header to parse.
    // Anything else (typed arrays, streams, class instances) could mean more to Fastify.
    if (
      isPlainJson(value) &&
      !fastifyReply.sent &&
      fastifyReply.getHeader('Content-Type') === undefined
    ) {
      fastifyReply.code(status).send(value);
      return;
    }
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
      const length = plainJsonLength(raw, limitBytes);
      if (length !== undefined) {
        readPlainJson(raw, length, done);
        return;
      }
      const stub = {} as never;
      json(raw, stub, (error?: unknown) => {
        if (error) done(error as Error);
        else
          urlencoded(raw, stub, (failure?: unknown) =>
            failure ? done(failure as Error) : done(null, (raw as { body?: unknown }).body),
          );
      });
    };
    fastify.removeAllContentTypeParsers();
    const parser: ContentTypeParser = (request, _payload, done) => parse(request.raw, done);
    // Named too: Fastify finds an exact type at once, the catch-all only after parsing the header.
    fastify.addContentTypeParser('application/json', parser);
    fastify.addContentTypeParser('*', parser);
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
  installSecurityHeaders(nest, headers) {
    // Fastify sends no X-Powered-By.
    const fastify = nest.getHttpAdapter().getInstance() as FastifyLike;
    fastify.addHook('onRequest', (_request, replyOf, done) => {
      const fastifyReply = reply(replyOf);
      for (const name in headers) fastifyReply.header(name, headers[name]);
      done();
    });
  },
  addRequestHook(instance, stage, hook) {
    (instance as FastifyLike).addHook(
      stage === 'start' ? 'onRequest' : 'preHandler',
      (request, replyOf, done) => hook(request, replyOf, () => done()),
    );
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
