import { afterAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App, HealthController } from 'toolkit';
import { RagModule } from 'toolkit/rag';
import { TestClient, type TestResponse } from 'toolkit/testing';
import { buildDocx } from '../../libs/rag/test/__fixtures__/build-docx.js';
import { buildPdf } from '../../libs/rag/test/__fixtures__/build-pdf.js';
import { buildPng } from '../../libs/rag/test/__fixtures__/build-png.js';
import { RagController } from '../../templates/rag/src/rag.controller.js';

/** The rag template's app, as its app.ts builds it, on folders of its own. */
function ragApp(root: string): App {
  return new App({
    title: 'rag-e2e',
    controllers: [HealthController, RagController],
    imports: [RagModule.forRoot()],
    logger: false,
    cwd: root,
    config: {
      llm: { default_model: 'echo' },
      rag: { documents_dir: join(root, 'docs/documents'), index_dir: join(root, '.toolkit/index') },
    },
  });
}

/** A multipart upload of files given as `name → content`. */
function form(files: { name: string; content: Buffer }[]) {
  return { files: { file: files.map((f) => ({ filename: f.name, content: f.content })) } };
}

const TEA =
  'Green tea should be steeped at 80 degrees Celsius for two minutes. Boiling water makes it bitter.';
const BIKES =
  'To fix a flat bicycle tyre, remove the wheel, find the puncture and apply a rubber patch.';
const TAXES = 'Quarterly tax returns are due on the fifteenth day after the quarter ends.';

describe('the rag template end to end', () => {
  const root = mkdtempSync(join(tmpdir(), 'toolkit-rag-'));
  let app = ragApp(root);
  let client = new TestClient(app);
  const ids: Record<string, string> = {};
  const documentId = (res: TestResponse) => res.json<{ document_id: string }>().document_id;

  afterAll(async () => {
    await app.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('indexes three documents of different types', async () => {
    const txt = await client.post(
      '/upload',
      form([{ name: 'tea.txt', content: Buffer.from(TEA) }]),
    );
    expect(txt.statusCode).toBe(201);
    ids.tea = documentId(txt);
    const pdf = await client.post(
      '/upload',
      form([{ name: 'bikes.pdf', content: buildPdf([[[BIKES]]]) }]),
    );
    expect(pdf.statusCode).toBe(201);
    ids.bikes = documentId(pdf);
    const docx = await client.post(
      '/upload',
      form([{ name: 'taxes.docx', content: buildDocx([TAXES]) }]),
    );
    expect(docx.statusCode).toBe(201);
    ids.taxes = documentId(docx);
    const again = await client.post(
      '/upload',
      form([{ name: 'copy.txt', content: Buffer.from(TEA) }]),
    );
    expect(again.statusCode).toBe(200);
    expect(documentId(again)).toBe(ids.tea);
    expect(
      (await client.get('/documents')).json<{ documents: unknown[] }>().documents,
    ).toHaveLength(3);
  });

  it('finds the right document first and answers with sources', async () => {
    const search = await client.post('/search', { json: { query: 'flat bicycle tyre puncture' } });
    expect(search.json<{ results: { document_id: string }[] }>().results[0].document_id).toBe(
      ids.bikes,
    );
    const ask = await client.post('/ask', {
      json: { question: 'At what temperature should green tea be steeped?', top_k: 2 },
    });
    const body = ask.json<{
      answer: string;
      sources: { document: string; chunk: number; score: number }[];
    }>();
    expect(body.answer.length).toBeGreaterThan(0);
    expect(body.sources[0]).toMatchObject({
      document: 'tea.txt',
      chunk: 0,
      score: expect.any(Number),
    });
  });

  it('still answers after a restart, and forgets a deleted document', async () => {
    await app.close();
    app = ragApp(root);
    client = new TestClient(app);
    const search = await client.post('/search', { json: { query: 'quarterly tax returns' } });
    expect(search.json<{ results: { document_id: string }[] }>().results[0].document_id).toBe(
      ids.taxes,
    );

    expect((await client.delete(`/documents/${ids.taxes}`)).json()).toEqual({
      status: 'deleted',
      document_id: ids.taxes,
    });
    const after = await client.post('/search', {
      json: { query: 'quarterly tax returns', top_k: 5 },
    });
    expect(
      after.json<{ results: { document_id: string }[] }>().results.map((r) => r.document_id),
    ).not.toContain(ids.taxes);
    expect(
      readdirSync(join(root, 'docs/documents')).some((f) => f.startsWith(ids.taxes.slice(0, 16))),
    ).toBe(false);
  });

  it('answers hostile and bad input with clear 4xx errors', async () => {
    const traversal = await client.post(
      '/upload',
      form([{ name: '../../../etc/cron.d/evil.txt', content: Buffer.from('harmless text') }]),
    );
    expect(traversal.statusCode).toBe(201);
    expect(traversal.json<{ filename: string }>().filename).toBe('evil.txt');
    expect(readdirSync(root)).not.toContain('etc');
    for (const stored of readdirSync(join(root, 'docs/documents')))
      expect(stored).toMatch(/^(\.index|\.gitkeep|\.names\.json|[0-9a-f]+\.[a-z]+)$/);

    const png = await client.post('/upload', form([{ name: 'scan.pdf', content: buildPng() }]));
    expect(png.statusCode).toBe(415);
    expect(png.json<{ error: string }>().error).toMatch(/pdf/i);
    const empty = await client.post(
      '/upload',
      form([{ name: 'empty.txt', content: Buffer.alloc(0) }]),
    );
    expect(empty.statusCode).toBe(422);

    expect(
      (await client.post('/search', { json: { query: 'tea', top_k: 100000 } })).statusCode,
    ).toBe(422);
    expect((await client.post('/ask', { json: { question: '' } })).statusCode).toBe(422);
    expect((await client.post('/ask', { json: {} })).statusCode).toBe(422);
  });

  it('refuses a 25 MiB upload with 413 stating the limit', async () => {
    const big = await client.post(
      '/upload',
      form([{ name: 'big.txt', content: Buffer.alloc(25 * 1024 * 1024, 'a') }]),
    );
    expect(big.statusCode).toBe(413);
    expect(big.json<{ error: string }>().error).toBe('Upload exceeds the limit of 20 MiB');
  });
});
