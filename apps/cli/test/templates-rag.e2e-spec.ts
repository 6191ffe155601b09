import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { existsSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { assertCliBuilt, eventually, isAlive } from './support/cli-process.js';
import {
  expectOwnTestsPass,
  expectTypeChecks,
  generateProject,
  installedCopies,
  npmInstall,
  requestJson,
  startDevServer,
  type DevServer,
  type GeneratedProject,
} from './support/generated-project.js';

const TEA =
  'Green tea is steeped at 80 degrees Celsius for two minutes; black tea needs boiling water.';
const BIKES =
  '# Bicycle care\n\nOil the chain every 300 kilometres and check the tyre pressure weekly.\n';
const HANDBOOK = 'The office handbook: every employee gets twenty-five vacation days per year.\n';

interface UploadAnswer {
  document_id: string;
  filename: string;
  chunks: number;
}

describe('toolkit new -t rag, end to end', () => {
  let project: GeneratedProject;
  let server: DevServer | undefined;
  /**
   * One visitor, as a browser is: the session cookie of the first upload goes with every later
   * request (uploads belong to the session that made them). A fixed `app.session_secret` keeps
   * the cookie valid across the restart below.
   */
  let cookie: string | undefined;
  const session = (): Record<string, string> => (cookie ? { cookie } : {});
  const SESSION_ENV = { TOOLKIT_APP_SESSION_SECRET: 'e2e-rag-session-secret-0123456789abcdef' };
  const post = (path: string, json: unknown) =>
    requestJson(`${server!.url}${path}`, { json, headers: session() });
  const request = (path: string, method = 'GET') =>
    requestJson(`${server!.url}${path}`, { method, headers: session() });
  const upload = async (filename: string, content: string | Uint8Array, type = 'text/plain') => {
    const form = new FormData();
    form.append('file', new Blob([content], { type }), filename);
    const response = await fetch(`${server!.url}/upload`, {
      method: 'POST',
      body: form,
      headers: session(),
    });
    cookie ??= response.headers.get('set-cookie')?.split(';')[0];
    return { status: response.status, body: (await response.json()) as UploadAnswer };
  };
  const storedFiles = () =>
    // Hidden files are the folder's own: .gitkeep, .names.json (the uploaders' file names).
    readdirSync(project.path('docs', 'documents')).filter((name) => !name.startsWith('.'));

  beforeAll(async () => {
    assertCliBuilt();
    project = await generateProject('rag', 'e2e-rag');
    await npmInstall(project);
  }, 180_000);
  afterAll(async () => {
    await server?.kill();
    project?.cleanup();
  }, 30_000);

  it('creates docs/ for the site and the documents; installs one copy of Nest', () => {
    expect(existsSync(project.path('docs', 'index.md'))).toBe(true);
    expect(existsSync(project.path('docs', 'documents'))).toBe(true);
    expect(installedCopies(project, '@nestjs/core')).toEqual(['node_modules/@nestjs/core']);
  });

  it("passes the project's own npm test and leaves no document behind", async () => {
    await expectOwnTestsPass(project);
    expect(storedFiles()).toEqual([]);
  }, 120_000);

  it('type-checks with its own npm run typecheck', async () => {
    await expectTypeChecks(project);
  }, 90_000);

  it('is served by toolkit dev --no-reload, indexing docs/documents/ at start-up', async () => {
    writeFileSync(project.path('docs', 'documents', 'handbook.txt'), HANDBOOK);
    server = await startDevServer(project, SESSION_ENV);
    expect(server.cli.stdout()).toMatch(/LLM: +echo \(offline/);
    expect(await requestJson(`${server.url}/health`)).toMatchObject({
      status: 200,
      body: { status: 'healthy', version: '0.1.0' },
    });
    const listed = await requestJson(`${server.url}/documents`);
    expect(listed.body).toMatchObject({
      documents: [expect.objectContaining({ filename: 'handbook.txt' })],
    });
  }, 90_000);

  let teaId: string;
  let bikesId: string;

  it('POST /upload stores text and Markdown under server-generated names', async () => {
    const tea = await upload('tea.txt', TEA);
    expect(tea).toMatchObject({
      status: 201,
      body: { document_id: expect.any(String), filename: 'tea.txt', chunks: expect.any(Number) },
    });
    expect(tea.body.chunks).toBeGreaterThan(0);
    teaId = tea.body.document_id;
    const bikes = await upload('bikes.md', BIKES, 'text/markdown');
    expect(bikes).toMatchObject({ status: 201, body: { filename: 'bikes.md' } });
    bikesId = bikes.body.document_id;

    const again = await upload('tea-copy.txt', TEA);
    expect(again.status).toBe(200);
    expect(again.body.document_id).toBe(teaId);

    // A path in the file name only labels the document: nothing is written outside docs/documents/.
    const sneaky = await upload('../../escape.txt', 'An escape attempt about teapots.');
    expect(sneaky.status).toBe(201);
    expect(existsSync(project.path('escape.txt'))).toBe(false);
    expect(existsSync(join(project.dir, '..', 'escape.txt'))).toBe(false);
    expect(storedFiles()).not.toContain('tea.txt');
    expect((await request(`/documents/${sneaky.body.document_id}`, 'DELETE')).status).toBe(200);

    expect((await upload('tool.exe', new Uint8Array([0x4d, 0x5a, 0, 1, 2, 3]))).status).toBe(415);
  });

  it('POST /search finds the best chunk with its document and score', async () => {
    const search = await post('/search', { query: 'green tea temperature', top_k: 2 });
    expect(search.status).toBe(200);
    const { results } = search.body as {
      results: Array<{ text: string; score: number; document: string; chunk: number }>;
    };
    expect(results.length).toBeGreaterThan(0);
    expect(results.length).toBeLessThanOrEqual(2);
    expect(results[0]).toMatchObject({
      document: 'tea.txt',
      chunk: 0,
      score: expect.any(Number),
      text: expect.stringContaining('Green tea'),
    });
    const bikes = await post('/search', { query: 'bicycle chain oil' });
    expect((bikes.body as { results: Array<{ document: string }> }).results[0].document).toBe(
      'bikes.md',
    );
  });

  it('POST /ask answers with sources', async () => {
    const ask = await post('/ask', { question: 'How many vacation days do employees get?' });
    expect(ask).toMatchObject({
      status: 200,
      body: {
        answer: expect.any(String),
        sources: expect.arrayContaining([
          expect.objectContaining({
            document: 'handbook.txt',
            chunk: 0,
            score: expect.any(Number),
          }),
        ]),
      },
    });
    expect((await post('/ask', { question: '' })).status).toBe(422);
  });

  it('POST /ask says the documents do not cover an unrelated question, with no sources', async () => {
    expect(await post('/ask', { question: 'Who painted the Mona Lisa?' })).toMatchObject({
      status: 200,
      body: { answer: 'The documents do not cover this question.', sources: [] },
    });
    expect((await post('/search', { query: 'xkqzv wplmrt' })).body).toMatchObject({
      results: [],
    });
  });

  it('GET /documents lists them and DELETE /documents/:id removes one', async () => {
    const listed = await request('/documents');
    const names = (listed.body as { documents: Array<{ filename: string }> }).documents.map(
      (d) => d.filename,
    );
    expect(names.sort()).toEqual(['bikes.md', 'handbook.txt', 'tea.txt']);

    const removed = await request(`/documents/${bikesId}`, 'DELETE');
    expect(removed).toMatchObject({
      status: 200,
      body: { status: 'deleted', document_id: bikesId },
    });
    const missing = await request(`/documents/${bikesId}`, 'DELETE');
    expect(missing.status).toBe(404);
    const search = await post('/search', { query: 'bicycle chain oil' });
    const documents = (search.body as { results: Array<{ document: string }> }).results.map(
      (r) => r.document,
    );
    expect(documents).not.toContain('bikes.md');
    expect(teaId).toBeDefined();
  });

  it('stops on Ctrl+C (SIGINT) with exit status 0', async () => {
    const pid = server!.serverPid;
    expect(await server!.interrupt()).toEqual({ code: 0, signal: null });
    expect(await eventually(() => !isAlive(pid), 5_000)).toBe(true);
  }, 30_000);

  it('shows the uploaded file names after the index is deleted and rebuilt', async () => {
    rmSync(project.path('.toolkit', 'index'), { recursive: true, force: true });
    server = await startDevServer(project, SESSION_ENV);
    const listed = await request('/documents');
    const names = (listed.body as { documents: Array<{ filename: string }> }).documents.map(
      (d) => d.filename,
    );
    expect(names.sort()).toEqual(['handbook.txt', 'tea.txt']);
    const search = await post('/search', { query: 'green tea temperature' });
    expect((search.body as { results: Array<{ document: string }> }).results[0].document).toBe(
      'tea.txt',
    );
    await server.kill();
  }, 90_000);
});
