import type { INestApplication } from '@nestjs/common';
import type { Express } from 'express';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { inject, type InjectOptions, type Response } from 'light-my-request';
import { App } from '../../framework/src/index.js';
import { injectableExpress } from './injectable-express.js';
import { multipartBody, type TestFile } from './multipart-body.js';
import { TestResponse } from './test-response.js';

/** What a {@link TestClient} can drive. */
export type TestTarget =
  App | INestApplication | ((req: IncomingMessage, res: ServerResponse) => void);

/** Options shared by every request. */
export interface RequestOptions {
  /** Extra request headers. */
  headers?: Record<string, string>;
  /** Query-string parameters. */
  params?: Record<string, string | number | boolean | readonly (string | number | boolean)[]>;
}

/** Options of requests that carry a body. */
export interface BodyRequestOptions extends RequestOptions {
  /** Sent as JSON (`Content-Type: application/json`). */
  json?: unknown;
  /** Sent as an HTML form when an object (multipart fields when `files` is given); as is when a string or Buffer. */
  data?: Record<string, string> | string | Buffer;
  /** Files sent as `multipart/form-data`, by form field (e.g. `{ file: { filename, content } }`). */
  files?: Record<string, TestFile | readonly TestFile[]>;
}

/** Sends one request in-process and resolves with the whole answer. */
type Injector = (options: InjectOptions) => Promise<Response>;

/** The parts of a Fastify instance the client uses. */
/** The parts of a Fastify instance the client drives. */
interface FastifyRoutable {
  ready(): PromiseLike<unknown>;
  routing(req: IncomingMessage, res: ServerResponse): void;
}

/**
 * Sends requests to an app in-process — no listening socket — through the full pipeline:
 * routing, guards, binding, interceptors, cache, errors and SSE, on either platform, both
 * through light-my-request (Fastify's own `inject()` engine) calling the platform's request
 * handler. A streamed answer (SSE) is read whole, once the stream has ended; `res.events()`
 * then parses it.
 *
 * @example
 * const client = new TestClient(app);
 * const res = await client.post('/translate', { json: { text: 'hello' } });
 * expect(res.json()).toEqual({ translation: expect.any(String), language: 'Spanish' });
 */
export class TestClient {
  private injector?: Promise<Injector>;

  constructor(private readonly target: TestTarget) {}

  /** GET `path`. */
  get(path: string, options: RequestOptions = {}): Promise<TestResponse> {
    return this.request('GET', path, options);
  }

  /** POST `path` with an optional JSON or form body. */
  post(path: string, options: BodyRequestOptions = {}): Promise<TestResponse> {
    return this.request('POST', path, options);
  }

  /** PUT `path` with an optional JSON body. */
  put(path: string, options: BodyRequestOptions = {}): Promise<TestResponse> {
    return this.request('PUT', path, options);
  }

  /** PATCH `path` with an optional JSON body. */
  patch(path: string, options: BodyRequestOptions = {}): Promise<TestResponse> {
    return this.request('PATCH', path, options);
  }

  /** DELETE `path`. */
  delete(path: string, options: BodyRequestOptions = {}): Promise<TestResponse> {
    return this.request('DELETE', path, options);
  }

  /** Any method. */
  async request(
    method: string,
    path: string,
    options: BodyRequestOptions = {},
  ): Promise<TestResponse> {
    const send = await (this.injector ??= this.resolve());
    const headers: Record<string, string> = { ...options.headers };
    let payload: string | Buffer | undefined;
    if (options.files) {
      const fields =
        typeof options.data === 'object' && !Buffer.isBuffer(options.data) ? options.data : {};
      const { body, contentType } = multipartBody(options.files, fields);
      payload = body;
      headers['content-type'] ??= contentType;
    } else if (options.json !== undefined) {
      payload = JSON.stringify(options.json);
      headers['content-type'] ??= 'application/json';
    } else if (typeof options.data === 'string' || Buffer.isBuffer(options.data)) {
      payload = options.data;
    } else if (options.data) {
      payload = new URLSearchParams(options.data).toString();
      headers['content-type'] ??= 'application/x-www-form-urlencoded';
    }
    const injectOptions: InjectOptions = {
      method: method.toUpperCase() as InjectOptions['method'],
      url: path,
      headers,
      ...(payload !== undefined ? { payload } : {}),
      ...(options.params ? { query: toQuery(options.params) } : {}),
    };
    const response = await send(injectOptions);
    return new TestResponse(response.statusCode, response.headers, response.rawPayload);
  }

  private async resolve(): Promise<Injector> {
    const target = this.target;
    if (typeof target === 'function') return (options) => inject(target, options);
    const nest = await target.init();
    const adapter = nest.getHttpAdapter();
    if (adapter.getType() === 'fastify') {
      // Fastify's own inject() would load the light-my-request its project resolves; newer ones
      // need cookie@2, an ES module Jest cannot require before Node 24.9. The same injection
      // through toolkit's own copy drives Fastify's request handler alike.
      const fastify = adapter.getInstance() as FastifyRoutable;
      await fastify.ready();
      return (options) => inject((req, res) => fastify.routing(req, res), options);
    }
    const dispatch = injectableExpress(adapter.getInstance() as Express);
    return (options) => inject(dispatch, options);
  }
}

function toQuery(params: NonNullable<RequestOptions['params']>): Record<string, string | string[]> {
  return Object.fromEntries(
    Object.entries(params).map(([key, value]) => [
      key,
      Array.isArray(value) ? value.map(String) : String(value as string | number | boolean),
    ]),
  );
}
