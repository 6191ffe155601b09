import { loadedAnthropicSdk } from './anthropic-sdk.js';
import { ToolkitError } from '../../errors/toolkit.error.js';
import { errorMessage, isAbortError } from '../provider/abort.js';
import { mapUpstreamFailure } from '../provider/map-upstream-failure.js';
import type { ProviderCallContext } from '../provider/map-upstream-failure.js';

/** HTTP status equivalent of each Anthropic error `type` (error events inside a stream have none). */
const STATUS_OF_TYPE: Record<string, number> = {
  invalid_request_error: 400,
  authentication_error: 401,
  permission_error: 403,
  not_found_error: 404,
  request_too_large: 413,
  rate_limit_error: 429,
  api_error: 500,
  overloaded_error: 529,
};

interface AnthropicErrorBody {
  error?: { type?: unknown; message?: unknown };
}

/** Maps whatever `@anthropic-ai/sdk` threw to a toolkit error (SPEC 3.2 statuses). */
export function mapAnthropicError(error: unknown, ctx: ProviderCallContext): ToolkitError {
  if (ToolkitError.isInstance(error)) return error;
  const sdk = loadedAnthropicSdk();
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
    const inner =
      typeof raw === 'object' && raw !== null ? (raw as AnthropicErrorBody).error : undefined;
    const type = typeof inner?.type === 'string' ? inner.type : undefined;
    return mapUpstreamFailure(
      {
        kind: 'http',
        status:
          typeof status === 'number'
            ? status
            : ((type && Object.hasOwn(STATUS_OF_TYPE, type) ? STATUS_OF_TYPE[type] : undefined) ??
              500),
        headers: headers instanceof Headers ? headers : undefined,
        message: typeof inner?.message === 'string' ? inner.message : error.message,
        cause: error,
      },
      ctx,
    );
  }
  return mapUpstreamFailure(
    { kind: 'broken-stream', message: errorMessage(error), cause: error },
    ctx,
  );
}
