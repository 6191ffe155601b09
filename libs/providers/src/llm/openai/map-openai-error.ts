import { loadedOpenAISdk } from './openai-sdk.js';
import { ToolkitError } from '../../errors/toolkit.error.js';
import { errorMessage, isAbortError } from '../provider/abort.js';
import { mapUpstreamFailure } from '../provider/map-upstream-failure.js';
import type { ProviderCallContext } from '../provider/map-upstream-failure.js';

interface OpenAIErrorBody {
  message?: unknown;
  type?: unknown;
  code?: unknown;
}

/** Status of an error event received inside a stream, where there is no HTTP status. */
function inferStatus(body: OpenAIErrorBody | undefined): number {
  const label = `${String(body?.type)} ${String(body?.code)}`;
  if (label.includes('rate_limit')) return 429;
  if (label.includes('api_key')) return 401;
  if (label.includes('invalid_request')) return 400;
  return 500;
}

/** Maps whatever the `openai` SDK threw to a toolkit error (SPEC 3.2 statuses). */
export function mapOpenAIError(error: unknown, ctx: ProviderCallContext): ToolkitError {
  if (ToolkitError.isInstance(error)) return error;
  const sdk = loadedOpenAISdk();
  if ((sdk !== undefined && error instanceof sdk.APIUserAbortError) || isAbortError(error)) {
    return mapUpstreamFailure({ kind: 'abort', cause: error }, ctx);
  }
  if (sdk !== undefined && error instanceof sdk.APIConnectionTimeoutError) {
    return mapUpstreamFailure({ kind: 'timeout', cause: error }, ctx);
  }
  if (sdk !== undefined && error instanceof sdk.APIConnectionError) {
    return mapUpstreamFailure({ kind: 'connection', cause: error }, ctx);
  }
  if (sdk !== undefined && error instanceof sdk.APIError) {
    const status: unknown = error.status;
    const headers: unknown = error.headers;
    const raw: unknown = error.error;
    const body = typeof raw === 'object' && raw !== null ? (raw as OpenAIErrorBody) : undefined;
    return mapUpstreamFailure(
      {
        kind: 'http',
        status: typeof status === 'number' ? status : inferStatus(body),
        headers: headers instanceof Headers ? headers : undefined,
        message: typeof body?.message === 'string' ? body.message : error.message,
        cause: error,
      },
      ctx,
    );
  }
  // A body that broke off mid-stream (socket closed, bad chunk): an upstream failure.
  return mapUpstreamFailure(
    { kind: 'broken-stream', message: errorMessage(error), cause: error },
    ctx,
  );
}
