import { createParamDecorator, SSE_ABORT_CONTROLLER, type ExecutionContext } from '@nestjs/common';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { platformOfResponse } from '../http/platform/platform-of.js';

// Nest's own carrier: one controller serves `@RequestSignal()` and Nest's `@SseSignal()`.
type SignalCarrier = IncomingMessage & { [SSE_ABORT_CONTROLLER]?: AbortController };

/** Raised (as the signal's reason) when the client closes the connection before the answer ends. */
export class ClientDisconnectedError extends Error {
  constructor() {
    super('Client disconnected');
    this.name = 'ClientDisconnectedError';
  }
}

/** Raised (as the signal's reason) when the server shuts down while the answer is still going. */
export class ServerShutdownError extends Error {
  constructor() {
    super('The server is shutting down');
    this.name = 'ServerShutdownError';
  }
}

/**
 * The AbortController behind a request's signal, created on first use: it aborts when the client
 * goes away before the response is finished. It watches the RESPONSE's `close`, because the
 * request's fires as soon as a POST body has been read.
 */
export function requestAbortController(req: IncomingMessage, res: ServerResponse): AbortController {
  const carrier = req as SignalCarrier;
  return (carrier[SSE_ABORT_CONTROLLER] ??= watchedController(res));
}

/**
 * Lets the request's controller be created on first use (most stream handlers never ask for the
 * signal), and returns a way to abort it that does nothing when nobody took it.
 */
export function deferAbortController(
  req: IncomingMessage,
  res: ServerResponse,
): { abort(reason: unknown): void } {
  const carrier = req as SignalCarrier;
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
 * going (reason {@link ServerShutdownError}). Pass it to `llm.chat(..., { signal })` so a closed
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
  (_data: unknown, ctx: ExecutionContext): AbortSignal => {
    const http = ctx.switchToHttp();
    const res = http.getResponse<object>();
    return requestSignal(
      http.getRequest<IncomingMessage>(),
      platformOfResponse(res).rawResponse(res),
    );
  },
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
