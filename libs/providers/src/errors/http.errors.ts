import { ToolkitError } from './toolkit.error.js';

/** One offending request parameter in a 422 answer. */
export interface ParamProblem {
  /** The parameter's name as the client sends it (e.g. `target_lang`). */
  param: string;
  /** What is wrong, in words (e.g. `is required`, `must be a string`). */
  problem: string;
}

/** 400: the body is not valid JSON, or not the JSON object the route expects. */
export class BadRequestError extends ToolkitError {
  constructor(message = 'Bad Request') {
    super(message, { statusCode: 400 });
  }
}

/** 422: parameters missing or of the wrong type; `details` names each one. */
export class ValidationError extends ToolkitError {
  readonly details: readonly ParamProblem[];

  constructor(details: ParamProblem[]) {
    const names = details.map((d) => `${d.param} ${d.problem}`).join('; ');
    super(`Invalid parameters: ${names}`, { statusCode: 422, body: { details } });
    this.details = details;
  }
}

/** 404 with the exact body `{ "error": "Not Found" }`. */
export class NotFoundError extends ToolkitError {
  constructor(message = 'Not Found') {
    super(message, { statusCode: 404 });
  }
}

/** 405 with an `Allow` header listing the methods the path does accept. */
export class MethodNotAllowedError extends ToolkitError {
  constructor(allowed: readonly string[]) {
    super('Method Not Allowed', {
      statusCode: 405,
      headers: { Allow: allowed.join(', ') },
      body: { allowed },
    });
  }
}

/** 413: the body is over the limit; the message states the limit. */
export class PayloadTooLargeError extends ToolkitError {
  constructor(limitBytes: number, what = 'Request body') {
    super(`${what} exceeds the limit of ${formatBytes(limitBytes)}`, {
      statusCode: 413,
      body: { limit: limitBytes },
    });
  }
}

/** 415: an upload or body whose type the route does not accept. */
export class UnsupportedMediaTypeError extends ToolkitError {
  constructor(message: string) {
    super(message, { statusCode: 415 });
  }
}

/** 503: a backend (memory store, provider) cannot be reached right now. */
export class ServiceUnavailableError extends ToolkitError {
  constructor(message: string, cause?: unknown) {
    super(message, { statusCode: 503, isRetryable: true, cause });
  }
}

/** Human form of a byte count: `1 MiB`, `20 MiB`, `512 KiB`, `900 bytes`. */
export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024 && bytes % (1024 * 1024) === 0) return `${bytes / (1024 * 1024)} MiB`;
  if (bytes >= 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;
  if (bytes >= 1024 && bytes % 1024 === 0) return `${bytes / 1024} KiB`;
  return `${bytes} bytes`;
}
