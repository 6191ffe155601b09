import { ToolkitError } from '../errors/toolkit.error.js';

/** Which provider and model an error is about; carried by every {@link LlmError}. */
export interface LlmErrorContext {
  /** Human provider name, e.g. `OpenAI`. */
  provider: string;
  /** Model name sent on the wire. */
  model: string;
  /** Variable holding the provider's key, when it needs one. */
  keyVar?: string | null;
}

interface LlmErrorInit {
  statusCode: number;
  isRetryable?: boolean;
  headers?: Record<string, string>;
  body?: Record<string, unknown>;
  cause?: unknown;
}

/**
 * Base of every error an LLM call raises on purpose. `isRetryable` tells fallbacks whether the
 * next model may be tried (rate limits, outages, timeouts) or not (bad key, bad request).
 *
 * @example
 * try {
 *   return await llm.complete(prompt);
 * } catch (error) {
 *   if (error instanceof LlmError && error.isRetryable) return cachedAnswer; // 429, 5xx, timeout
 *   throw error;
 * }
 */
export class LlmError extends ToolkitError {
  /** Human provider name, e.g. `Anthropic`. */
  readonly provider: string;
  /** Model the call used. */
  readonly model: string;

  constructor(message: string, context: LlmErrorContext, init: LlmErrorInit) {
    super(message, init);
    this.provider = context.provider;
    this.model = context.model;
  }
}

/**
 * A model name no detection rule recognises. Raised when the `LLM` is constructed; the message
 * lists what is recognised and the closest known prefix.
 */
export class UnknownModelError extends ToolkitError {
  /** Patterns the detection table recognises, e.g. `gpt-*`, `ollama/<model>`. */
  readonly knownPrefixes: readonly string[];

  constructor(
    readonly modelName: string,
    knownPrefixes: readonly string[],
    readonly suggestion?: string,
    reason = 'no provider recognises it',
  ) {
    const hint = suggestion ? ` Did you mean a name starting with "${suggestion}"?` : '';
    super(
      `Unknown model "${modelName}": ${reason}.${hint} Recognised: ${knownPrefixes.join(', ')}.`,
      { statusCode: 500 },
    );
    this.knownPrefixes = knownPrefixes;
  }
}

/** 503: the provider's key variable is unset or still a placeholder. Names the variable. */
export class MissingApiKeyError extends LlmError {
  constructor(
    context: LlmErrorContext,
    readonly keyVar: string,
  ) {
    super(
      `No API key for ${context.provider}: set ${keyVar} (environment or .env) to use model "${context.model}"`,
      context,
      { statusCode: 503, body: { missing: keyVar } },
    );
  }
}

/**
 * 503: the SDK the model's provider runs on is not installed (the SDKs are optional peers of
 * toolkit). Raised by the first call, like a missing key; the message has the install command.
 */
export class MissingSdkError extends LlmError {
  constructor(
    context: LlmErrorContext,
    readonly packageName: string,
  ) {
    super(
      `${context.provider} models need the ${packageName} package, which is not installed: run npm install ${packageName} to use model "${context.model}"`,
      context,
      { statusCode: 503, body: { missing: packageName } },
    );
  }
}

/** 502: the provider refused the key (HTTP 401/403). Never worth a retry or a fallback. */
export class ProviderAuthError extends LlmError {
  constructor(
    context: LlmErrorContext,
    readonly upstreamStatus: number,
    cause?: unknown,
  ) {
    const check = context.keyVar ? `: check ${context.keyVar}` : '';
    super(
      `${context.provider} rejected the credentials (HTTP ${upstreamStatus})${check}`,
      context,
      {
        statusCode: 502,
        cause,
      },
    );
  }
}

/** 429: the provider is rate-limiting; `Retry-After` (seconds) is passed on when known. */
export class ProviderRateLimitError extends LlmError {
  constructor(
    context: LlmErrorContext,
    readonly retryAfterSeconds?: number,
    cause?: unknown,
  ) {
    const when = retryAfterSeconds === undefined ? '' : `; retry after ${retryAfterSeconds} s`;
    super(`${context.provider} rate limit reached for model "${context.model}"${when}`, context, {
      statusCode: 429,
      isRetryable: true,
      headers: retryAfterSeconds === undefined ? {} : { 'Retry-After': String(retryAfterSeconds) },
      cause,
    });
  }
}

/** 504: the provider did not answer (or stopped streaming) within the timeout. */
export class ProviderTimeoutError extends LlmError {
  constructor(
    context: LlmErrorContext,
    readonly timeoutMs: number,
    cause?: unknown,
  ) {
    super(
      `${context.provider} did not answer within ${timeoutMs} ms (model "${context.model}")`,
      context,
      { statusCode: 504, isRetryable: true, cause },
    );
  }
}

/**
 * 502: any other upstream failure (5xx, unreachable host, a rejected request, a broken stream).
 * Retryable for outages; not for requests the provider refused (4xx).
 */
export class ProviderError extends LlmError {
  constructor(
    message: string,
    context: LlmErrorContext,
    readonly upstreamStatus: number | undefined,
    isRetryable: boolean,
    cause?: unknown,
  ) {
    super(message, context, { statusCode: 502, isRetryable, cause });
  }
}

/** The caller aborted the call (its `signal` fired), e.g. because the SSE client went away. */
export class LlmAbortedError extends LlmError {
  constructor(context: LlmErrorContext, cause?: unknown) {
    super(`The ${context.provider} call was aborted by the caller`, context, {
      statusCode: 499,
      cause,
    });
  }
}

/** 501: `embed()` on a provider that has no embeddings API (Anthropic, DeepSeek, Grok). */
export class EmbeddingsNotSupportedError extends LlmError {
  constructor(context: LlmErrorContext) {
    super(
      `${context.provider} has no embeddings API; pass { embeddingModel: 'text-embedding-3-small' } or another embedding model`,
      context,
      { statusCode: 501 },
    );
  }
}
