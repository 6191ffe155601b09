import { StreamableFile } from '@nestjs/common';
import { replyRouteOf } from '../routing/bind-request.js';
import type { RouteInfo } from '../routing/route-info.js';
import type { HttpPlatform } from './platform/http-platform.js';

/** The adapter's own `reply`, for what toolkit's rules leave to it. */
export type AdapterReply = (response: object, body: unknown, statusCode?: number) => unknown;

/**
 * Toolkit's return rules, for toolkit routes only: `[body, status]` → that status; a string →
 * `text/plain`; `undefined` → 204; a Buffer → `application/octet-stream`; anything else → JSON,
 * 200 even for POST. `@HttpCode()` replaces the 200/204 defaults; a tuple wins over both. Plain
 * Nest routes and error replies (a status other than the route's success status) go to `reply`
 * (the adapter's own) untouched; an answer already sent (an SSE stream) is left alone. What
 * toolkit's adapters (`ToolkitExpressAdapter`, `ToolkitFastifyAdapter`) call from their `reply`.
 */
export function replyByToolkitRules(
  platform: HttpPlatform,
  response: object,
  body: unknown,
  statusCode: number | undefined,
  reply: AdapterReply,
): unknown {
  const route = replyRouteOf(response);
  // Nest replies with a route's result passing no status (it set it before the handler ran),
  // or its success status; an error filter passes the error's.
  const isResult = statusCode === undefined || statusCode === route?.successStatus;
  if (!route || !isResult) return reply(response, body, statusCode);
  if (platform.isAnswered(response)) return undefined;
  const [value, tupleStatus] = splitTuple(body);
  const status = replyStatus(route, value, tupleStatus);
  if (value === undefined) platform.send(response, status);
  else if (typeof value === 'string')
    platform.send(response, status, value, 'text/plain; charset=utf-8');
  else if (Buffer.isBuffer(value))
    platform.send(response, status, value, 'application/octet-stream');
  else if (value instanceof StreamableFile) return reply(response, value, status);
  else platform.sendJson(response, status, value);
  return undefined;
}

/**
 * The status toolkit's rules give a route's result: the tuple's, else `@HttpCode()`'s, else 204
 * for `undefined` and 200 for anything else.
 */
export function replyStatus(
  route: Pick<RouteInfo, 'explicitStatus' | 'successStatus'>,
  value: unknown,
  tupleStatus: number | undefined,
): number {
  return (
    tupleStatus ?? (route.explicitStatus ? route.successStatus : value === undefined ? 204 : 200)
  );
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

/** Marks an adapter whose own `reply` applies {@link replyByToolkitRules}. */
export const TOOLKIT_REPLIES = Symbol.for('toolkit:replies');

/** True for toolkit's adapters, which apply the return rules themselves. */
export function appliesToolkitReplies(adapter: object | undefined): boolean {
  return (adapter as { [TOOLKIT_REPLIES]?: boolean } | undefined)?.[TOOLKIT_REPLIES] === true;
}
