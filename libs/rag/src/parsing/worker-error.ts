import { ToolkitError } from '../../../providers/src/internal.js';
import {
  UnreadableDocumentError,
  UnsupportedDocumentError,
  type UnreadableReason,
} from '../rag.errors.js';

/** An error as it crosses from a parser worker to the main thread (plain data). */
export interface SerializedError {
  name: string;
  message: string;
  /** Set for a `ToolkitError`: its status, body and headers. */
  toolkit?: {
    statusCode: number;
    isRetryable: boolean;
    body: Record<string, unknown>;
    headers: Record<string, string>;
  };
}

/** Plain data for an error thrown in a worker (classes do not survive `postMessage`). */
export function serializeError(error: unknown): SerializedError {
  const base = error instanceof Error ? error : new Error(String(error));
  if (!ToolkitError.isInstance(error)) return { name: base.name, message: base.message };
  return {
    name: error.name,
    message: error.message,
    toolkit: {
      statusCode: error.statusCode,
      isRetryable: error.isRetryable,
      body: { ...error.body },
      headers: { ...error.headers },
    },
  };
}

/**
 * The error a worker reported, rebuilt on the main thread: the loaders' own classes
 * (`UnsupportedDocumentError`, `UnreadableDocumentError` with its `reason`) as themselves, any
 * other `ToolkitError` with its status, body, headers and name, anything else as a plain `Error`
 * (an internal failure: a 500 that names nothing of the worker).
 */
export function deserializeError(data: SerializedError): Error {
  const { toolkit } = data;
  if (!toolkit) {
    const error = new Error(data.message);
    error.name = data.name;
    return error;
  }
  if (data.name === UnsupportedDocumentError.name)
    return new UnsupportedDocumentError(data.message);
  if (data.name === UnreadableDocumentError.name) {
    return new UnreadableDocumentError(toolkit.body.reason as UnreadableReason, data.message);
  }
  const error = new ToolkitError(data.message, toolkit);
  error.name = data.name;
  return error;
}
