/**
 * Vector dimensions of the embedding models toolkit knows, by model name (a provider prefix such
 * as `openai/` is ignored). Another model needs `rag.embedding_dimensions`.
 */
export const EMBEDDING_DIMENSIONS: Readonly<Record<string, number>> = {
  'text-embedding-3-small': 1536,
  'text-embedding-3-large': 3072,
  'text-embedding-ada-002': 1536,
  'ollama/nomic-embed-text': 768,
  'ollama/mxbai-embed-large': 1024,
  'ollama/all-minilm': 384,
  'gemini-embedding-001': 3072,
  'text-embedding-004': 768,
  'mistral-embed': 1024,
};

/**
 * The dimensions of a known embedding model, or undefined.
 *
 * @example
 * embeddingDimensions('openai/text-embedding-3-small'); // 1536
 */
export function embeddingDimensions(model: string): number | undefined {
  const name = model.trim();
  if (Object.hasOwn(EMBEDDING_DIMENSIONS, name)) return EMBEDDING_DIMENSIONS[name];
  const bare = name.slice(name.indexOf('/') + 1);
  return Object.hasOwn(EMBEDDING_DIMENSIONS, bare) ? EMBEDDING_DIMENSIONS[bare] : undefined;
}
