import { ConfigError } from '../../../providers/src/internal.js';
import type { VectorStoreOptions } from './vector-store.interface.js';

/**
 * Compares the embedder a store was built with to the configured one. Same id and dimensions →
 * `keep`; different → `reset` when the policy allows it, else a `ConfigError` naming both.
 */
export function checkEmbedder(
  stored: { embedderId: string; dimensions: number },
  options: VectorStoreOptions,
  where: string,
): 'keep' | 'reset' {
  if (stored.embedderId === options.embedderId && stored.dimensions === options.dimensions) {
    return 'keep';
  }
  if ((options.onEmbedderChange ?? 'error') === 'reset') return 'reset';
  throw new ConfigError(
    'rag.embedder',
    `is ${options.embedderId} (${options.dimensions} dimensions) but the vector store was built with ` +
      `${stored.embedderId} (${stored.dimensions} dimensions); clear the store or allow a reset ` +
      `(onEmbedderChange: 'reset')`,
    where,
  );
}

/** Validates the `dimensions` option of a store. */
export function checkDimensions(dimensions: number, where: string): void {
  if (!Number.isInteger(dimensions) || dimensions < 1 || dimensions > 16000) {
    throw new ConfigError(
      'rag.dimensions',
      `must be an integer from 1 to 16000 (got ${dimensions})`,
      where,
    );
  }
}
