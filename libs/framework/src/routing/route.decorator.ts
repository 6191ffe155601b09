import { RequestMapping, UseGuards } from '@nestjs/common';
import { documentRoute } from '../openapi/swagger-bridge/route-docs.js';
import { BINDS_METADATA, ROUTE_METADATA, STREAM_METADATA } from '../toolkit.constants.js';
import { normalizeMethods, toRequestMethod, type HttpMethod } from './http-method.js';
import { normalizeParams, type NormalizedParam, type ParamsDeclaration } from './param-spec.js';
import { RouteEntryGuard } from './route-entry.guard.js';

/** Options of {@link Route}. */
export interface RouteOptions {
  /** Methods the route answers; others get 405 with an `Allow` header. @default ['GET'] */
  methods?: readonly (HttpMethod | Lowercase<HttpMethod>)[];
  /** Parameters checked before the handler runs (controllers usually use `@Arg` instead). */
  params?: ParamsDeclaration;
  /** One-line summary for the OpenAPI document. */
  summary?: string;
}

/** What `@Route` records on a handler. */
export interface RouteMetadata {
  path: string;
  methods: HttpMethod[];
  params?: NormalizedParam[];
  summary?: string;
}

/**
 * Maps a controller method to a path, toolkit-style: the return value decides the answer
 * (object → JSON 200, `[body, status]` → that status, string → text/plain, `undefined` → 204),
 * parameters declared with `@Arg` are checked (422 naming each bad one), and `@Stream()` methods
 * answer with Server-Sent Events. It composes Nest's own `RequestMapping` and answers through
 * Nest's reply path, so guards, pipes, interceptors, filters, `@HttpCode`, `@Header` and
 * `@Redirect` apply as on any Nest route (`@HttpCode` wins over toolkit's 200/204 defaults; a
 * `[body, status]` tuple wins over both).
 * In an app with `@nestjs/swagger` installed, the route is documented in the app's swagger
 * document as well (its parameters, SSE answer and `{ "error" }` bodies: see `documentRoute`).
 *
 * @example
 * @Controller()
 * class ChatController {
 *   @Route('/chat', { methods: ['POST'] })
 *   async chat(@Arg('message') message: string) {
 *     return { response: await this.llm.chat(message) };
 *   }
 * }
 */
export function Route(path: string, options: RouteOptions = {}): MethodDecorator {
  const methods = normalizeMethods(options.methods);
  const metadata: RouteMetadata = {
    path,
    methods,
    ...(options.params ? { params: normalizeParams(options.params) } : {}),
    ...(options.summary ? { summary: options.summary } : {}),
  };
  return (target, key, descriptor) => {
    RequestMapping({ path, method: toRequestMethod(methods) })(target, key, descriptor);
    Reflect.defineMetadata(ROUTE_METADATA, metadata, descriptor.value as object);
    // A method that declares toolkit parameters enters the route as Nest reads them, and a stream
    // (`@Stream()` written below `@Route`) as its interceptor starts; any other needs the guard.
    // Parameter decorators, and the method decorators below this one, have run: this is known now.
    const handler = descriptor.value as object;
    if (
      !Reflect.getMetadata(BINDS_METADATA, handler) &&
      !Reflect.hasMetadata(STREAM_METADATA, handler)
    ) {
      UseGuards(RouteEntryGuard)(target, key, descriptor);
    }
    documentRoute({ target, key, descriptor }, metadata);
    return descriptor;
  };
}
