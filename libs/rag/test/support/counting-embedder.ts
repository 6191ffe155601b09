import type { Embedder } from '../../src/embedding/embedder.interface.js';
import { HashingEmbedder } from '../../src/embedding/hashing.embedder.js';

/** The offline embedder, counting the texts it embeds (to prove what was NOT re-embedded). */
export class CountingEmbedder implements Embedder {
  readonly inner = new HashingEmbedder({ dimensions: 64 });
  readonly id = this.inner.id;
  readonly dimensions = this.inner.dimensions;
  embedded: string[] = [];

  embed(texts: string[]): Promise<number[][]> {
    this.embedded.push(...texts);
    return this.inner.embed(texts);
  }
}
