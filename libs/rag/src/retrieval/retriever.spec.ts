import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ConfigError } from '../../../providers/src/errors/config.error.js';
import { chunkText } from '../chunking/chunker.js';
import type { Embedder } from '../embedding/embedder.interface.js';
import { HashingEmbedder } from '../embedding/hashing.embedder.js';
import { LocalVectorStore } from '../stores/local-vector.store.js';
import { Bm25Index } from './bm25.index.js';
import { Retriever } from './retriever.js';

const TEXTS: Record<string, string> = {
  vacation: 'Employees receive 25 vacation days per year.',
  coffee: 'Descale the espresso machine once a month.',
  travel: 'Trains are preferred over planes for short journeys.',
};

describe('Retriever', () => {
  let dir: string;
  let store: LocalVectorStore;
  const bm25 = new Bm25Index();
  const hashing = new HashingEmbedder({ dimensions: 128 });
  const queries: string[] = [];
  const embedder: Embedder = {
    id: hashing.id,
    dimensions: hashing.dimensions,
    minSimilarity: hashing.minSimilarity,
    embed: (texts) => {
      queries.push(...texts);
      return hashing.embed(texts);
    },
  };

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'tk-rag-retriever-'));
    store = await LocalVectorStore.open({
      directory: dir,
      dimensions: 128,
      embedderId: hashing.id,
    });
    for (const [id, text] of Object.entries(TEXTS)) {
      const chunks = chunkText({ documentId: id, text });
      const record = {
        id,
        sha256: id,
        filename: `${id}.txt`,
        type: 'txt' as const,
        bytes: 1,
        chunks: 1,
        createdAt: '',
      };
      await store.add(record, chunks, await hashing.embed(chunks.map((c) => c.text)));
      bm25.add(chunks);
    }
  });

  afterAll(async () => {
    await store.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('bm25 mode uses keywords only and never embeds', async () => {
    queries.length = 0;
    const retriever = new Retriever({ mode: 'bm25', store, embedder, bm25 });
    expect(retriever.mode).toBe('bm25');
    const hits = await retriever.retrieve('vacation days', 3);
    expect(hits.map((h) => h.chunk.documentId)).toEqual(['vacation']);
    expect(hits[0].chunk.text).toBe(TEXTS.vacation);
    expect(hits[0].coverage).toBeCloseTo(1, 10);
    expect(hits[0].similarity).toBeUndefined();
    expect(queries).toEqual([]);
  });

  it('vector mode ranks by cosine and drops chunks with nothing in common', async () => {
    const retriever = new Retriever({ mode: 'vector', store, embedder });
    const hits = await retriever.retrieve('espresso machine', 3);
    expect(hits[0].chunk.documentId).toBe('coffee');
    expect(hits.every((h) => h.score > 0 && h.score <= 1)).toBe(true);
  });

  it('hybrid mode fuses both lists by reciprocal rank', async () => {
    const retriever = new Retriever({ mode: 'hybrid', store, embedder, bm25 });
    const hits = await retriever.retrieve('short train journeys', 2);
    expect(hits[0].chunk.documentId).toBe('travel');
    expect(hits[0].score).toBeCloseTo(2 / 61, 10);
    // The underlying signals the floor looked at come along.
    expect(hits[0].coverage).toBeGreaterThanOrEqual(retriever.minScore.keyword);
    expect(hits[0].similarity).toBeGreaterThan(0);
    expect(hits.length).toBeLessThanOrEqual(2);
  });

  it.each(['bm25', 'vector', 'hybrid'] as const)(
    '%s mode returns nothing for an unrelated query, unless the floor is off',
    async (mode) => {
      const retriever = new Retriever({ mode, store, embedder, bm25 });
      expect(await retriever.retrieve('Who painted the Mona Lisa in Florence?', 3)).toEqual([]);
      expect(await retriever.retrieve('zzqx vrbl', 3)).toEqual([]);
      const open = new Retriever({
        mode,
        store,
        embedder,
        bm25,
        minScore: { keyword: 0, vector: 0 },
      });
      expect(await open.retrieve('yearly employee days per month', 3)).not.toEqual([]);
    },
  );

  it('keeps a hybrid chunk that passes either floor, with its fused score', async () => {
    // Keywords vouch for the chunk even when no vector similarity could.
    const keywordsOnly = new Retriever({
      mode: 'hybrid',
      store,
      embedder,
      bm25,
      minScore: { vector: 1 },
    });
    const hits = await keywordsOnly.retrieve('espresso machine', 3);
    expect(hits.map((h) => h.chunk.documentId)).toEqual(['coffee']);
    // And vectors vouch when the keyword floor is out of reach.
    const vectorsOnly = new Retriever({
      mode: 'hybrid',
      store,
      embedder,
      bm25,
      minScore: { keyword: 1, vector: 0.3 },
    });
    expect((await vectorsOnly.retrieve('espresso machines', 3))[0].chunk.documentId).toBe('coffee');
  });

  it("defaults to the embedder's similarity floor and refuses a bad one", () => {
    const retriever = new Retriever({ mode: 'vector', store, embedder: hashing });
    expect(retriever.minScore).toEqual({ keyword: 0.15, vector: hashing.minSimilarity });
    expect(hashing.minSimilarity).toBeCloseTo(Math.min(1, 8 / Math.sqrt(128)), 10);
    expect(
      () => new Retriever({ mode: 'bm25', store, embedder, bm25, minScore: { keyword: -1 } }),
    ).toThrow('rag.minScore.keyword must be a number from 0 to 1 (got -1)');
    expect(
      () => new Retriever({ mode: 'vector', store, embedder, minScore: { vector: Number.NaN } }),
    ).toThrow(ConfigError);
  });

  it('refuses a keyword mode without a BM25 index and an unknown mode', () => {
    expect(() => new Retriever({ mode: 'hybrid', store, embedder })).toThrow(ConfigError);
    expect(() => new Retriever({ mode: 'fuzzy' as 'bm25', store, embedder, bm25 })).toThrow(
      ConfigError,
    );
  });
});
