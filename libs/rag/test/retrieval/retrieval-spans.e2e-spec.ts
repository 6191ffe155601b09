/**
 * The spans of retrieval and ingestion, with the real OpenTelemetry SDK, the offline embedder
 * and the pgvector store on the test PostgreSQL: one `toolkit.rag.ingest` per document, one
 * `toolkit.rag.retrieve` per query (mode, top-k, results), the query only when content may be
 * recorded, the store's calls inside the span, a failing store failing it, none while off.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { openTelemetryTracer } from '../../../providers/src/telemetry/open-telemetry.tracer.js';
import { installTracer } from '../../../providers/src/telemetry/tracing.js';
import {
  parentId,
  recordSpans,
  type SpanRecorder,
} from '../../../providers/test/support/span-recorder.js';
import { HashingEmbedder } from '../../src/embedding/hashing.embedder.js';
import { DocumentIndex } from '../../src/indexing/document-index.js';
import type { RetrievalMode } from '../../src/retrieval/retriever.js';
import { PgVectorStore } from '../../src/stores/pgvector.store.js';
import type { VectorStore } from '../../src/stores/vector-store.interface.js';
import { POSTGRES_URL, dropStoreTables, uniqueTablePrefix } from '../support/postgres.js';

const text = (value: string): Uint8Array => new TextEncoder().encode(value);
const LEAVE = text('Parental leave lasts sixteen weeks. Employees apply through the portal.');
const TRAINS = text('The night train to Vienna leaves at ten. Sleeping cars need a booking.');
const QUERY = 'How long is parental leave?';
const OWNER = 'session-secret-owner-42';

/** The store, noting which span is active when a search reaches it (where pg's own span would go). */
function observed(store: VectorStore): { store: VectorStore; active: string[] } {
  const active: string[] = [];
  const wrapped = Object.create(store) as VectorStore;
  wrapped.search = (...args: Parameters<VectorStore['search']>) => {
    active.push(trace.getActiveSpan()?.spanContext().spanId ?? '');
    return store.search(...args);
  };
  return { store: wrapped, active };
}

describe('retrieval and ingestion spans', () => {
  const embedder = new HashingEmbedder();
  const prefixes: string[] = [];
  const dirs: string[] = [];
  const indexes: DocumentIndex[] = [];
  const stores: PgVectorStore[] = [];
  let recorder: SpanRecorder;

  beforeAll(async () => {
    recorder = await recordSpans();
  });
  afterAll(async () => {
    await Promise.all(indexes.map((index) => index.close()));
    // Passed in, so the indexes leave them open; closing one twice is fine.
    await Promise.all(stores.map((store) => store.close()));
    await recorder.uninstall();
    await Promise.all(prefixes.map((prefix) => dropStoreTables(prefix)));
    await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
  });

  async function open(mode: RetrievalMode) {
    const prefix = uniqueTablePrefix(mode);
    prefixes.push(prefix);
    const dir = await mkdtemp(join(tmpdir(), 'tk-rag-spans-'));
    dirs.push(dir);
    const pgStore = await PgVectorStore.open({
      url: POSTGRES_URL,
      table: prefix,
      dimensions: embedder.dimensions,
      embedderId: embedder.id,
    });
    stores.push(pgStore);
    const { store, active } = observed(pgStore);
    const index = await DocumentIndex.open({
      documentsDir: join(dir, 'documents'),
      embedder,
      store,
      mode,
      chunking: { size: 400, overlap: 60 },
    });
    indexes.push(index);
    return { index, pgStore, active };
  }

  it('one ingest span per document, new or already indexed, with no name nor owner', async () => {
    const { index } = await open('hybrid');
    recorder.reset();
    const { parent } = await recorder.withinParent(async () => {
      await index.ingest(LEAVE, 'leave-policy-of-alice.txt', { owner: OWNER });
      await index.ingest(TRAINS, 'trains.txt');
      await index.ingest(LEAVE, 'leave-again.txt', { owner: OWNER });
    });
    const spans = recorder.named('toolkit.rag.ingest');
    expect(spans.map((span) => span.attributes['toolkit.rag.created'])).toEqual([
      true,
      true,
      false,
    ]);
    for (const span of spans) {
      expect(span.kind).toBe(SpanKind.INTERNAL);
      expect(parentId(span)).toBe(parent.spanContext().spanId);
      expect(span.attributes).toMatchObject({
        'toolkit.rag.document.type': 'txt',
        'toolkit.rag.chunks': 1,
      });
    }
    expect(spans[0].attributes['toolkit.rag.document.bytes']).toBe(LEAVE.byteLength);
    const attributes = JSON.stringify(recorder.spans().map((span) => span.attributes));
    for (const secret of [OWNER, 'alice', 'trains.txt', 'Parental']) {
      expect(attributes).not.toContain(secret);
    }
  });

  it.each(['bm25', 'vector', 'hybrid'] as const)(
    '%s: one retrieve span with mode, top-k and results; the store searched inside it',
    async (mode) => {
      const { index, active } = await open(mode);
      await index.ingest(LEAVE, 'leave.txt');
      await index.ingest(TRAINS, 'trains.txt');
      recorder.reset();
      const { value: results, parent } = await recorder.withinParent(() => index.search(QUERY, 3));
      const [span] = recorder.named('toolkit.rag.retrieve');
      expect(span.kind).toBe(SpanKind.INTERNAL);
      expect(parentId(span)).toBe(parent.spanContext().spanId);
      expect(span.attributes).toMatchObject({
        'toolkit.rag.mode': mode,
        'toolkit.rag.top_k': 3,
        'toolkit.rag.results': results.length,
      });
      expect(results.length).toBeGreaterThan(0);
      expect(span.attributes['toolkit.rag.query']).toBeUndefined();
      // bm25 never asks the vector store to search; the others do, under the retrieve span.
      expect(active).toEqual(mode === 'bm25' ? [] : [span.spanContext().spanId]);
    },
  );

  it('records the query only when content may be recorded', async () => {
    const { index } = await open('hybrid');
    await index.ingest(LEAVE, 'leave.txt');
    installTracer(await openTelemetryTracer({ recordContent: true }));
    try {
      recorder.reset();
      await index.search(QUERY, 2);
      const [span] = recorder.named('toolkit.rag.retrieve');
      expect(span.attributes['toolkit.rag.query']).toBe(QUERY);
    } finally {
      installTracer(await openTelemetryTracer());
    }
  });

  it('a store that fails fails the retrieve span', async () => {
    const { index, pgStore } = await open('vector');
    await index.ingest(LEAVE, 'leave.txt');
    await pgStore.close();
    recorder.reset();
    await expect(index.search(QUERY, 2)).rejects.toThrow();
    const [span] = recorder.named('toolkit.rag.retrieve');
    expect(span.status.code).toBe(SpanStatusCode.ERROR);
    expect(typeof span.attributes['error.type']).toBe('string');
    expect(span.attributes['toolkit.rag.results']).toBeUndefined();
  });

  it('makes no span while tracing is off', async () => {
    const { index } = await open('hybrid');
    installTracer(undefined);
    try {
      recorder.reset();
      await index.ingest(LEAVE, 'leave.txt');
      expect((await index.search(QUERY, 2)).length).toBeGreaterThan(0);
      expect(recorder.spans()).toEqual([]);
    } finally {
      installTracer(await openTelemetryTracer());
    }
  });
});
