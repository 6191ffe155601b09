import { HttpException } from '@nestjs/common';
import { BadRequestError, PayloadTooLargeError } from './http.errors.js';
import { ToolkitError } from '../../../providers/src/internal.js';

/** What the exception filter sends for an error. */
export interface ErrorResponse {
  status: number;
  headers: Record<string, string>;
  body: Record<string, unknown>;
}

interface HttpishError {
  status?: number;
  statusCode?: number;
  type?: string;
  expose?: boolean;
  limit?: number;
  message?: string;
}

/**
 * Maps any thrown value to a status and an `{ "error": ... }` body. Toolkit errors keep their
 * status, headers and fields; Nest `HttpException`s keep theirs; Express body-parser failures
 * become 400 (bad JSON) and 413 (too large); anything else is a 500 whose message and stack are
 * shown only in debug mode.
 */
export function toErrorResponse(error: unknown, debug: boolean): ErrorResponse {
  const known = normalize(error);
  if (ToolkitError.isInstance(known)) {
    return { status: known.statusCode, headers: { ...known.headers }, body: known.toJSON() };
  }
  if (known instanceof HttpException) return fromHttpException(known);
  const body: Record<string, unknown> = { error: 'Internal Server Error' };
  if (debug && known instanceof Error) {
    body.message = known.message;
    body.type = known.name;
    body.stack = known.stack?.split('\n').map((line) => line.trim());
  }
  return { status: 500, headers: {}, body };
}

/** The client-facing message of an error (used by `event: error` on streams). */
export function publicMessage(error: unknown, debug: boolean): string {
  const { body } = toErrorResponse(error, debug);
  const message = debug && typeof body.message === 'string' ? body.message : body.error;
  return typeof message === 'string' ? message : 'Internal Server Error';
}

function normalize(error: unknown): unknown {
  if (typeof error !== 'object' || error === null || ToolkitError.isInstance(error)) return error;
  // Fastify's adapter wraps a client error of the body parser (http-errors) in an HttpException:
  // answered from the original, as on Express, where it arrives unwrapped.
  if (error instanceof HttpException && isHttpError(error.cause)) return normalize(error.cause);
  const e = error as HttpishError;
  if (e.type === 'entity.parse.failed') {
    return new BadRequestError(`Invalid JSON body: ${(e.message ?? '').split('\n')[0]}`);
  }
  if (e.type === 'entity.too.large') return new PayloadTooLargeError(e.limit ?? 0);
  const status = e.statusCode ?? e.status;
  if (e.expose === true && typeof status === 'number' && status >= 400 && status < 500) {
    return new ToolkitError(e.message ?? 'Bad Request', { statusCode: status });
  }
  return error;
}

function isHttpError(error: unknown): error is HttpishError {
  return (
    typeof error === 'object' &&
    error !== null &&
    !(error instanceof HttpException) &&
    typeof (error as HttpishError).expose === 'boolean' &&
    typeof ((error as HttpishError).statusCode ?? (error as HttpishError).status) === 'number'
  );
}

function fromHttpException(exception: HttpException): ErrorResponse {
  const status = exception.getStatus();
  const response = exception.getResponse();
  if (typeof response === 'string') return { status, headers: {}, body: { error: response } };
  const { message, error, statusCode: _statusCode, ...rest } = response as Record<string, unknown>;
  if (Array.isArray(message)) {
    const details = message.map((problem) => ({ problem: String(problem) }));
    return {
      status,
      headers: {},
      body: { error: typeof error === 'string' ? error : 'Invalid request', details, ...rest },
    };
  }
  const text =
    typeof message === 'string' ? message : typeof error === 'string' ? error : exception.message;
  return { status, headers: {}, body: { error: text, ...rest } };
}
