import { ToolkitError } from '../../../../providers/src/internal.js';
import { toErrorResponse } from '../error-response.js';
import { BadRequestError, MethodNotAllowedError, NotFoundError } from '../http.errors.js';
import { REQUEST_ID_HEADER, requestIdFor } from '../../logging/request-id.js';
import { FASTIFY_PLATFORM } from './fastify.platform.js';
import type { FrameworkError, FrameworkRequest } from './fastify-types.js';

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
 * is answered with its status and toolkit's `{ error }` body. No request hook runs for these
 * answers, so their `X-Request-Id` is given here (always a new one).
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
  FASTIFY_PLATFORM.setHeader(res, REQUEST_ID_HEADER, requestIdFor(undefined, false));
  for (const [name, value] of Object.entries(headers)) FASTIFY_PLATFORM.setHeader(res, name, value);
  FASTIFY_PLATFORM.sendJson(res, status, body);
}
