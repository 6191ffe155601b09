import { StreamableFile } from '@nestjs/common';
import type { HttpServer } from '@nestjs/common';
import type { Response } from 'express';
import { replyRouteOf } from '../routing/bind-request.js';

const INSTALLED = Symbol.for('toolkit:reply-rules');

type Reply = HttpServer['reply'];
type Adapter = Pick<HttpServer, 'reply'> & { [INSTALLED]?: true };

/**
 * Teaches an HTTP adapter toolkit's return rules, for toolkit routes only: `[body, status]` →
 * that status; a string → `text/plain`; `undefined` → 204; a Buffer → `application/octet-stream`;
 * anything else → JSON, 200 even for POST. `@HttpCode()` replaces the 200/204 defaults; a tuple
 * wins over both. Plain Nest routes and error replies (a status other than the route's success
 * status) go to the adapter untouched; an answer already sent (an SSE stream) is left alone.
 * Idempotent.
 */
export function installReplyRules(adapter: Adapter): void {
  if (adapter[INSTALLED]) return;
  const reply: Reply = adapter.reply.bind(adapter);
  adapter.reply = (response: Response, body: unknown, statusCode?: number): unknown => {
    const route = replyRouteOf(response);
    // Nest replies with a route's result passing no status (it set it before the handler ran),
    // or its success status; an error filter passes the error's.
    const isResult = statusCode === undefined || statusCode === route?.successStatus;
    if (!route || !isResult) return reply(response, body, statusCode);
    if (response.headersSent || response.writableEnded) return undefined;
    const [value, tupleStatus] = splitTuple(body);
    const status =
      tupleStatus ?? (route.explicitStatus ? route.successStatus : value === undefined ? 204 : 200);
    if (value === undefined) return response.status(status).end();
    if (typeof value === 'string')
      return sendAs(response, status, 'text/plain; charset=utf-8', value);
    if (Buffer.isBuffer(value)) return sendAs(response, status, 'application/octet-stream', value);
    if (value instanceof StreamableFile) return reply(response, value, status);
    return response.status(status).json(value);
  };
  adapter[INSTALLED] = true;
}

function sendAs(response: Response, status: number, type: string, body: string | Buffer): unknown {
  if (!response.getHeader('Content-Type')) response.setHeader('Content-Type', type);
  return response.status(status).send(body);
}

/** `[body, status]` with an integer HTTP status as second element, else the value itself. */
export function splitTuple(result: unknown): [unknown, number | undefined] {
  if (Array.isArray(result) && result.length === 2) {
    const status: unknown = result[1];
    if (typeof status === 'number' && Number.isInteger(status) && status >= 100 && status <= 599) {
      return [result[0], status];
    }
  }
  return [result, undefined];
}
