import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { IncomingMessage, ServerResponse } from 'node:http';

const CONTROLLER = Symbol.for('toolkit:abort-controller');

type SignalCarrier = IncomingMessage & { [CONTROLLER]?: AbortController };

/** Raised (as the signal's reason) when the client closes the connection before the answer ends. */
export class ClientDisconnectedError extends Error {
  constructor() {
    super('Client disconnected');
    this.name = 'ClientDisconnectedError';
  }
}

/**
 * The AbortSignal of a request: it fires when the client goes away before the response is
 * finished. It watches the RESPONSE's `close`, because the request's fires as soon as a POST
 * body has been read.
 */
export function requestSignal(req: IncomingMessage, res: ServerResponse): AbortSignal {
  const carrier = req as SignalCarrier;
  let controller = carrier[CONTROLLER];
  if (!controller) {
    const created = new AbortController();
    carrier[CONTROLLER] = created;
    // Asked for late (a lazy handler context): the client may already be gone.
    if (res.closed && !res.writableFinished) created.abort(new ClientDisconnectedError());
    else {
      res.once('close', () => {
        if (!res.writableFinished) created.abort(new ClientDisconnectedError());
      });
    }
    controller = created;
  }
  return controller.signal;
}

/**
 * Injects the request's AbortSignal (see {@link requestSignal}); pass it to `llm.chat(..., { signal })`
 * so a closed stream stops the upstream call.
 */
export const RequestSignal = createParamDecorator(
  (_data: unknown, ctx: ExecutionContext): AbortSignal => {
    const http = ctx.switchToHttp();
    return requestSignal(http.getRequest<IncomingMessage>(), http.getResponse<ServerResponse>());
  },
);
