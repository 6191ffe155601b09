import {
  LlmAbortedError,
  LlmError,
  ProviderAuthError,
  ProviderError,
  ProviderRateLimitError,
  ProviderTimeoutError,
} from '../llm.errors.js';
import type { LlmErrorContext } from '../llm.errors.js';
import { parseRetryAfterMs } from './provider.fetch.js';

/** What a vendor adapter knows about one call, for error messages. */
export interface ProviderCallContext extends LlmErrorContext {
  /** Base URL called, for "could not reach" messages. */
  baseURL: string | null;
  /** Per-attempt timeout, for 504 messages. */
  timeoutMs: number;
  /** The key in use: only ever used to scrub it out of upstream messages. */
  secret?: string;
}

/** A vendor-neutral description of a failed call, built by each vendor's error mapper. */
export interface UpstreamFailure {
  kind: 'http' | 'timeout' | 'connection' | 'abort' | 'broken-stream';
  status?: number;
  headers?: Headers;
  /** The provider's own explanation, if any (scrubbed before use). */
  message?: string;
  cause?: unknown;
}

const KEY_LIKE = /\b(sk|xai|gsk|AIza)[-_A-Za-z0-9]{8,}/g;

/** Removes the key (and anything key-shaped) from an upstream message and shortens it. */
export function scrub(message: string | undefined, secret?: string): string {
  if (!message) return '';
  let text = message;
  if (secret && secret.length >= 4) text = text.split(secret).join('***');
  text = text.replace(KEY_LIKE, '***').replace(/\s+/g, ' ').trim();
  return text.length > 300 ? `${text.slice(0, 297)}...` : text;
}

/** Turns a failure into the toolkit error SPEC 3.2 asks for. */
export function mapUpstreamFailure(failure: UpstreamFailure, ctx: ProviderCallContext): LlmError {
  const { cause } = failure;
  if (failure.kind === 'abort') return new LlmAbortedError(ctx, cause);
  if (failure.kind === 'timeout') return new ProviderTimeoutError(ctx, ctx.timeoutMs, cause);
  if (failure.kind === 'connection') {
    const where = ctx.baseURL ? ` at ${ctx.baseURL}` : '';
    return new ProviderError(
      `Could not reach ${ctx.provider}${where}`,
      ctx,
      undefined,
      true,
      cause,
    );
  }
  if (failure.kind === 'broken-stream') {
    const msg = `${ctx.provider} stream broke off: ${scrub(failure.message, ctx.secret)}`;
    return new ProviderError(msg, ctx, undefined, true, cause);
  }
  const status = failure.status ?? 500;
  const detail = scrub(failure.message, ctx.secret);
  const suffix = detail ? `: ${detail}` : '';
  if (status === 401 || status === 403) return new ProviderAuthError(ctx, status, cause);
  if (status === 429) {
    const waitMs = parseRetryAfterMs(failure.headers);
    return new ProviderRateLimitError(
      ctx,
      waitMs === undefined ? undefined : Math.ceil(waitMs / 1000),
      cause,
    );
  }
  if (status === 408 || status === 504) return new ProviderTimeoutError(ctx, ctx.timeoutMs, cause);
  if (status >= 500) {
    const msg = `${ctx.provider} failed (HTTP ${status})${suffix}`;
    return new ProviderError(msg, ctx, status, true, cause);
  }
  const what =
    status === 404
      ? `${ctx.provider} does not know model "${ctx.model}"`
      : `${ctx.provider} rejected the request`;
  return new ProviderError(`${what} (HTTP ${status})${suffix}`, ctx, status, false, cause);
}
