import type { ModelResolution } from '../resolution/resolve-model.js';
import type { FetchFunction } from './provider.fetch.js';

/** Everything a vendor adapter needs to build its SDK client. Internal. */
export interface VendorSettings {
  resolution: ModelResolution;
  /** The resolved key (`undefined` for providers that need none). Never logged. */
  apiKey: string | undefined;
  baseURL: string | null;
  /** Per-attempt timeout given to the SDK. */
  timeoutMs: number;
  /** Retries the SDK makes on 429/5xx/connection errors, with its own backoff. */
  maxRetries: number;
  /** `fetch` the SDK uses (wrapped so long `Retry-After` delays are not waited out). */
  fetch: FetchFunction;
  /** Model `embed()` uses. */
  embeddingModel: string | undefined;
  /** Most texts per embeddings request. */
  embedBatchSize: number;
  /** Extra headers sent with every request (proxies, gateways). */
  headers: Record<string, string>;
}

/** Splits a list into consecutive batches of at most `size` items. */
export function batches<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
