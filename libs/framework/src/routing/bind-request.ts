import type { IncomingMessage, ServerResponse } from 'node:http';
import { MethodNotAllowedError } from '../http/http.errors.js';
import { BINDING, REPLY_ROUTE } from '../toolkit.constants.js';
import { bindParams, mergeInputs, type BoundValues, type RequestInputs } from './param-binder.js';
import { routeInfo, type RouteInfo } from './route-info.js';

/** What Express adds to a request that binding reads. */
export type RoutedRequest = IncomingMessage & {
  params?: Record<string, unknown>;
  query?: Record<string, unknown>;
  body?: unknown;
};

interface Binding {
  readonly handler: object;
  readonly inputs: RequestInputs;
  values?: BoundValues | Promise<BoundValues>;
  error?: unknown;
  /** The parameters are not checked yet (see {@link enterRoute}'s `bind`). */
  unbound?: boolean;
}

type Carrier = RoutedRequest & { [BINDING]?: Binding };
type MarkedResponse = ServerResponse & { [REPLY_ROUTE]?: RouteInfo };

/**
 * Enters a toolkit route for this request, once: checks the method of a multi-method route (405),
 * binds and checks every declared parameter at once (one 422 names them all), and marks the
 * response so the adapter's reply applies toolkit's return rules to it. Every later call for the
 * same request (each `@Arg`, `@Cache`'s key) reuses the outcome, failures included.
 *
 * @returns the bound values: declared parameters, or every input merged when none is declared
 *   (a promise when a Standard Schema validates asynchronously)
 */
export function bindRequest(
  req: RoutedRequest,
  res: ServerResponse,
  handler: object,
): BoundValues | Promise<BoundValues> {
  const binding = enter(req, res, handler);
  if (binding.unbound) bindDeclared(binding);
  if ('error' in binding) throw binding.error;
  return (binding.values ??= mergeInputs(binding.inputs));
}

/**
 * {@link bindRequest} without reading the values: the checks and the mark only. With `bind`
 * false the declared parameters are left unchecked until something reads them (a resumed stream,
 * whose handler does not run again, is not refused for parameters it never reads).
 */
export function enterRoute(
  req: RoutedRequest,
  res: ServerResponse,
  handler: object,
  bind = true,
): void {
  const binding = enter(req, res, handler, bind);
  if (bind && binding.unbound) bindDeclared(binding);
  if ('error' in binding) throw binding.error;
}

/** The toolkit route a response belongs to (set by {@link bindRequest}), if any. */
export function replyRouteOf(res: object): RouteInfo | undefined {
  return (res as MarkedResponse)[REPLY_ROUTE];
}

function enter(req: Carrier, res: MarkedResponse, handler: object, bind = true): Binding {
  const existing = req[BINDING];
  if (existing?.handler === handler) return existing;
  const info = routeInfo(handler);
  const binding: Binding = { handler, inputs: inputsOf(req) };
  req[BINDING] = binding;
  if (!info) return binding;
  res[REPLY_ROUTE] = info;
  try {
    if (info.methods && !accepts(info.methods, req.method ?? 'GET')) {
      throw new MethodNotAllowedError(info.methods);
    }
    if (info.params) {
      if (bind) binding.values = bindParams(info.params, binding.inputs);
      else binding.unbound = true;
    }
  } catch (error) {
    binding.error = error;
  }
  return binding;
}

/** Checks the declared parameters of a binding entered without them. */
function bindDeclared(binding: Binding): void {
  binding.unbound = false;
  const params = routeInfo(binding.handler)?.params;
  if (!params) return;
  try {
    binding.values = bindParams(params, binding.inputs);
  } catch (error) {
    binding.error = error;
  }
}

function accepts(methods: readonly string[], method: string): boolean {
  return methods.includes(method) || (method === 'HEAD' && methods.includes('GET'));
}

/** JSON media types (`application/json`, `application/problem+json`, ...). */
const JSON_TYPE = /^application\/(?:[\w.-]+\+)?json$/i;

/** Content types whose body values are text fields. */
const FORM_TYPES = /^\s*(application\/x-www-form-urlencoded|multipart\/form-data)\b/i;

function inputsOf(req: RoutedRequest): RequestInputs {
  return new LazyInputs(req);
}

/**
 * The request's inputs. Express 5 parses the query string on every read of `req.query`: here
 * only when a parameter is looked for there (most POST routes never do), and once.
 */
class LazyInputs implements RequestInputs {
  readonly method: string;
  readonly path: Record<string, unknown>;
  readonly body: unknown;
  readonly bodyIsText: boolean;
  private parsedQuery?: Record<string, unknown>;

  constructor(private readonly req: RoutedRequest) {
    this.method = req.method ?? 'GET';
    this.path = req.params ?? {};
    this.body = req.body;
    this.bodyIsText = FORM_TYPES.test(req.headers['content-type'] ?? '');
  }

  /** The type of a body sent but not read as parameters (see `RequestInputs.unreadBodyType`). */
  get unreadBodyType(): string | undefined {
    const { headers } = this.req;
    const type = headers['content-type']?.split(';')[0].trim();
    if (!type || JSON_TYPE.test(type) || FORM_TYPES.test(type)) return undefined;
    // Read as text or bytes by a parser of the platform's (Fastify reads text/plain), or not read.
    if (typeof this.body === 'string' || Buffer.isBuffer(this.body)) return type;
    if (this.body !== undefined) return undefined;
    const length = headers['content-length'];
    const sent =
      headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
    return sent ? type : undefined;
  }

  get query(): Record<string, unknown> {
    return (this.parsedQuery ??= this.req.query ?? {});
  }
}
