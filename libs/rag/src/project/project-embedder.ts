import type { RagSettings } from '../../../framework/src/internal.js';
import { isKeySet } from '../../../providers/src/index.js';
import { ConfigError, embeddingDimensions } from '../../../providers/src/internal.js';
import type { Embedder } from '../embedding/embedder.interface.js';
import { HashingEmbedder } from '../embedding/hashing.embedder.js';
import { LlmEmbedder } from '../embedding/llm.embedder.js';

/**
 * The embedding model `rag.embeddings` names, or undefined for the offline hashing embedder:
 * `offline` is offline, `auto` is `text-embedding-3-small` when `OPENAI_API_KEY` is set.
 */
export function embeddingModelFor(
  settings: Pick<RagSettings, 'embeddings'>,
  env: NodeJS.ProcessEnv = process.env,
): string | undefined {
  if (settings.embeddings === 'offline') return undefined;
  if (settings.embeddings === 'auto')
    return isKeySet(env.OPENAI_API_KEY) ? 'text-embedding-3-small' : undefined;
  return settings.embeddings;
}

/**
 * The embedder `rag.embeddings` and `rag.embedding_dimensions` describe. A model whose
 * dimensions toolkit does not know, without `embedding_dimensions`, is a `ConfigError`.
 *
 * @example
 * const embedder = await projectEmbedder(config.rag); // offline unless OPENAI_API_KEY is set
 */
export async function projectEmbedder(
  settings: Pick<RagSettings, 'embeddings' | 'embedding_dimensions'>,
  env: NodeJS.ProcessEnv = process.env,
): Promise<Embedder> {
  const model = embeddingModelFor(settings, env);
  if (model === undefined) return new HashingEmbedder();
  const dimensions = settings.embedding_dimensions ?? embeddingDimensions(model);
  if (dimensions === undefined) {
    throw new ConfigError(
      'rag.embedding_dimensions',
      `is needed for the model ${model} (toolkit does not know its vector size)`,
      'toolkit.yaml',
    );
  }
  // The model's SDK is loaded only when a model embeds (by the LLM, on its first call). LLM itself
  // comes from the providers door this file already loads, so this import costs nothing more.
  const { LLM } = await import('../../../providers/src/internal.js');
  return new LlmEmbedder(new LLM(model, { env }), { id: model, dimensions });
}
