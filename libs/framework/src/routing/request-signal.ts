import * as nestCommon from '@nestjs/common';
import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import { ROUTE_ARGS_METADATA } from '@nestjs/common/constants.js';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { platformOfResponse } from '../http/platform/platform-of.js';
import { ClientDisconnectedError } from './request-signal.errors.js';

/**
 * Nest's own carrier of a request's abort controller, so one controller serves `@RequestSignal()`
 * and Nest's `@SseSignal()` (Nest 12). Nest 11 has neither: toolkit then keeps its own property.
 * Read from the namespace, as a named import of a missing export fails to load on Nest 11.
 */
const SSE_ABORT_CONTROLLER: symbol =
  (nestCommon as { SSE_ABORT_CONTROLLER?: symbol }).SSE_ABORT_CONTROLLER ??
  Symbol('toolkit:abort-controller');
type SignalCarrier = IncomingMessage & { [key: symbol]: AbortController | undefined };

/**
 * The AbortController behind a request's signal, created on first use: it aborts when the client
 * goes away before the response is finished. It watches the RESPONSE's `close`, because the
 * request's fires as soon as a POST body has been read.
 */
export function requestAbortController(req: IncomingMessage, res: ServerResponse): AbortController {
  const carrier = req as SignalCarrier;
  return (carrier[SSE_ABORT_CONTROLLER] ??= watchedController(res));
}

/** Parameter factories of toolkit's, which take the signal only through `requestSignal()`. */
const TOOLKIT_FACTORIES = new WeakSet<object>();

/** Records that a parameter factory of toolkit's never reads the bare controller property. */
export function signalSafeFactory<T extends object>(factory: T): T {
  TOOLKIT_FACTORIES.add(factory);
  return factory;
}

interface RouteArg {
  factory?: unknown;
}

const earlyReaders = new WeakMap<object, boolean>();

/**
 * Whether a handler has a parameter decorator toolkit does not know (Nest's `@SseSignal()`
 * among them), which may read the request's AbortController from its property before anyone
 * asked for it. Read once per handler.
 */
export function mayReadSignalEarly(controller: object, handler: object): boolean {
  let known = earlyReaders.get(handler);
  if (known === undefined) {
    const prototype = (controller as { prototype?: Record<string, unknown> }).prototype ?? {};
    const key = Object.getOwnPropertyNames(prototype).find((name) => prototype[name] === handler);
    const args = (
      key === undefined ? undefined : Reflect.getMetadata(ROUTE_ARGS_METADATA, controller, key)
    ) as Record<string, RouteArg> | undefined;
    // A handler not found on its class (an inherited method): assume the worst.
    known =
      args === undefined
        ? key === undefined
        : Object.values(args).some(
            (arg) => typeof arg.factory === 'function' && !TOOLKIT_FACTORIES.has(arg.factory),
          );
    earlyReaders.set(handler, known);
  }
  return known;
}

/**
 * Lets the request's controller be created on first use (most stream handlers never ask for the
 * signal), and returns a way to abort it that does nothing when nobody took it. With `early`
 * (a parameter that reads the bare property may run), the property itself creates it on first
 * read; otherwise only `requestSignal()` does, and nothing is defined on the request.
 */
export function deferAbortController(
  req: IncomingMessage,
  res: ServerResponse,
  early = true,
): { abort(reason: unknown): void } {
  const carrier = req as SignalCarrier;
  if (!early) return { abort: (reason) => carrier[SSE_ABORT_CONTROLLER]?.abort(reason) };
  let controller = carrier[SSE_ABORT_CONTROLLER];
  if (!controller) {
    Object.defineProperty(carrier, SSE_ABORT_CONTROLLER, {
      configurable: true,
      get: () => (controller ??= watchedController(res)),
      set: (value: AbortController) => (controller = value),
    });
  }
  return { abort: (reason) => controller?.abort(reason) };
}

function watchedController(res: ServerResponse): AbortController {
  const created = new AbortController();
  // Asked for late (a lazy handler context): the client may already be gone.
  if (res.closed && !res.writableFinished) created.abort(new ClientDisconnectedError());
  else {
    res.once('close', () => {
      if (!res.writableFinished) created.abort(new ClientDisconnectedError());
    });
  }
  return created;
}

/**
 * The AbortSignal of a request (see {@link requestAbortController}); pass it to
 * `llm.chat(..., { signal })` so a closed connection stops the upstream call.
 */
export function requestSignal(req: IncomingMessage, res: ServerResponse): AbortSignal {
  return requestAbortController(req, res).signal;
}

/**
 * Injects the request's AbortSignal: it aborts when the client goes away before the answer ends
 * (reason {@link ClientDisconnectedError}), or when the server shuts down with the answer still
 * going (reason `ServerShutdownError`). Pass it to `llm.chat(..., { signal })` so a closed
 * stream stops the upstream call. On a `@Stream()` route it is the signal Nest's `@SseSignal()`
 * gives too, and, like that one, it also aborts once the stream is over.
 *
 * @example
 * @Route('/chat', { methods: ['POST'] })
 * @Stream()
 * chat(@Arg('message') message: string, @RequestSignal() signal: AbortSignal) {
 *   return this.llm.chat(message, { stream: true, signal });
 * }
 */
export const RequestSignal = createParamDecorator(
  signalSafeFactory((_data: unknown, ctx: ExecutionContext): AbortSignal => {
    const http = ctx.switchToHttp();
    const res = http.getResponse<object>();
    return requestSignal(
      http.getRequest<IncomingMessage>(),
      platformOfResponse(res).rawResponse(res),
    );
  }),
);

/**
 * Makes `controller` the request's signal (`@RequestSignal()`, Nest's `@SseSignal()`) instead of
 * one that aborts when the client goes: a resumable stream's producer outlives its client.
 */
export function replaceAbortController(req: IncomingMessage, controller: AbortController): void {
  Object.defineProperty(req, SSE_ABORT_CONTROLLER, {
    configurable: true,
    writable: true,
    value: controller,
  });
}
