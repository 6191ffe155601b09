import { afterEach, describe, expect, it } from '@jest/globals';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { chunkText } from '../../src/chunking/chunker.js';
import { loadAs } from '../../src/loaders/load-document.js';
import { IngestionBudgetError } from '../../src/parsing/ingestion-budget.error.js';
import type { ParseJob } from '../../src/parsing/parse-job.js';
import { ParserPool } from '../../src/parsing/parser-pool.js';
import { UnreadableDocumentError, UnsupportedDocumentError } from '../../src/rag.errors.js';
import { until } from '../support/poll.js';

const PROSE =
  'The committee met on Tuesday. It reviewed the budget for the coming year, line by line. ' +
  'Several members asked for more detail on travel costs! Others wanted the report sooner.\n\n';

const textJob = (text: string, name = 'notes.txt'): ParseJob => ({
  type: 'txt',
  content: Buffer.from(text),
  name,
  documentId: 'doc1',
  chunking: { size: 400, overlap: 60 },
});

/** Many sibling paragraphs: a DOM of hundreds of thousands of nodes. */
const wideHtml = (paragraphs: number) =>
  `<html><body>${'<p>word and another word</p>'.repeat(paragraphs)}</body></html>`;

describe('ParserPool: parsing in worker threads within a budget', () => {
  let pool: ParserPool | undefined;
  afterEach(async () => {
    await pool?.close();
    pool = undefined;
  });

  it('gives the chunks parsing in this thread gives', async () => {
    pool = new ParserPool();
    const job = textJob(PROSE.repeat(40));
    const loaded = await loadAs('txt', job.content, job.name);
    const expected = chunkText({ documentId: 'doc1', text: loaded.text }, job.chunking);
    const outcome = await pool.parse(job);
    expect(outcome.chunks).toEqual(expected);
    expect(outcome.characters).toBe(loaded.text.length);
    expect(expected.length).toBeGreaterThan(5);
  });

  it("rebuilds the loaders' errors as their own classes", async () => {
    pool = new ParserPool();
    const corrupt = pool.parse({ ...textJob(''), type: 'pdf', content: Buffer.from('%PDF-1.7 x') });
    await expect(corrupt).rejects.toBeInstanceOf(UnreadableDocumentError);
    await expect(corrupt).rejects.toMatchObject({ reason: 'corrupt', statusCode: 422 });
    const binary = pool.parse({ ...textJob(''), content: Buffer.from([0, 1, 2, 3, 0xff, 0, 0]) });
    await expect(binary).rejects.toBeInstanceOf(UnsupportedDocumentError);
    await expect(binary).rejects.toMatchObject({ statusCode: 415 });
  });

  it('stops a file past its time, answers 422 naming the limit, and parses the next one', async () => {
    pool = new ParserPool({ timeoutMs: 50 });
    // Tens of megabytes of prose take far longer than 50 ms to chunk on any machine.
    const huge = pool.parse(textJob(PROSE.repeat(150_000), 'huge.txt'));
    await expect(huge).rejects.toBeInstanceOf(IngestionBudgetError);
    await expect(huge).rejects.toMatchObject({
      statusCode: 422,
      budget: 'time',
      message: expect.stringMatching(/"huge\.txt".*longer than 50ms.*rag\.ingest_timeout/),
    });
    expect(pool.workerCount).toBe(0);
    const small = await new ParserPool().parse(textJob(PROSE)).catch((e: unknown) => e);
    expect(small).toMatchObject({ chunks: expect.any(Array) });
  });

  it('stops a file past its memory and answers 422 naming the limit', async () => {
    pool = new ParserPool({ memoryMb: 24, timeoutMs: 120_000 });
    const wide = pool.parse({
      ...textJob(''),
      type: 'html',
      name: 'wide.html',
      content: Buffer.from(wideHtml(400_000)),
    });
    await expect(wide).rejects.toMatchObject({
      statusCode: 422,
      budget: 'memory',
      message: expect.stringMatching(/"wide\.html".*more than 24 MiB.*rag\.ingest_memory/),
    });
    // The pool goes on with a fresh worker.
    await expect(pool.parse(textJob(PROSE))).resolves.toMatchObject({ chunks: expect.any(Array) });
  });

  it('leaves the event loop free while a large file is parsed', async () => {
    pool = new ParserPool({ timeoutMs: 600_000 });
    await pool.parse(textJob(PROSE)); // the worker is started and warm
    const delay = monitorEventLoopDelay({ resolution: 10 });
    const started = performance.now();
    delay.enable();
    await pool.parse(textJob(PROSE.repeat(5000)));
    delay.disable();
    const parsing = performance.now() - started;
    // In this thread, the loop would be blocked for the whole parse; in a worker it only
    // receives the result. The bound is relative to the parse's own duration.
    expect(delay.max / 1e6).toBeLessThan(parsing / 2);
  }, 120_000);

  it('refuses files past the queue with a 503 to retry', async () => {
    pool = new ParserPool({ workers: 1, maxQueued: 1, timeoutMs: 600_000 });
    const first = pool.parse(textJob(PROSE.repeat(5000)));
    await until(() => pool!.waiting === 0, 'the first file to reach the worker');
    const second = pool.parse(textJob(PROSE));
    expect(pool.waiting).toBe(1);
    await expect(pool.parse(textJob(PROSE))).rejects.toMatchObject({
      statusCode: 503,
      headers: { 'Retry-After': '5' },
      message: expect.stringContaining('Too many documents waiting to be indexed (1)'),
    });
    await expect(first).resolves.toBeDefined();
    await expect(second).resolves.toBeDefined();
  }, 120_000);

  it('on close, refuses the file being parsed and those waiting with a 503', async () => {
    pool = new ParserPool({ timeoutMs: 600_000 });
    const running = pool.parse(textJob(PROSE.repeat(150_000))).catch((e: unknown) => e);
    await until(() => pool!.waiting === 0, 'the first file to reach the worker');
    const waiting = pool.parse(textJob(PROSE)).catch((e: unknown) => e);
    await pool.close();
    expect(await running).toMatchObject({ statusCode: 503 });
    expect(await waiting).toMatchObject({ statusCode: 503 });
    expect(pool.workerCount).toBe(0);
    await expect(pool.parse(textJob(PROSE))).rejects.toMatchObject({ statusCode: 503 });
  });

  it('stops idle workers, so an idle app holds none', async () => {
    pool = new ParserPool({ idleMs: 20 });
    await pool.parse(textJob(PROSE));
    await until(() => pool!.workerCount === 0, 'the idle worker to stop');
  });
});
