import { afterAll, describe, expect, it } from '@jest/globals';
import { TestClient, type BodyRequestOptions, type TestResponse } from 'toolkit/testing';
import { app } from '../app.js';

/**
 * One visitor, as a browser is: the session cookie of the first answer goes with every later
 * request. Uploaded documents belong to the session that uploaded them (plus the shared ones of
 * docs/documents/), so a request without it would not see them.
 */
function visitor(client: TestClient) {
  let cookie: string | undefined;
  const send = async (
    method: 'post' | 'delete',
    path: string,
    options: BodyRequestOptions = {},
  ): Promise<TestResponse> => {
    const headers = { ...options.headers, ...(cookie && { cookie }) };
    const res = await client[method](path, { ...options, headers });
    const set = res.headers['set-cookie'];
    cookie ??= set === undefined ? undefined : String(set).split(';')[0];
    return res;
  };
  return {
    post: (path: string, options?: BodyRequestOptions) => send('post', path, options),
    delete: (path: string, options?: BodyRequestOptions) => send('delete', path, options),
  };
}

/** A multipart upload of one text file. */
function upload(filename: string, text: string) {
  return { files: { file: { filename, content: text, contentType: 'text/plain' } } };
}

describe('the RAG app (offline embeddings, echo model)', () => {
  const client = visitor(new TestClient(app));
  afterAll(() => app.close());

  it('says at / which retrieval it runs and what it serves', async () => {
    const res = await new TestClient(app).get('/');
    expect(res.statusCode).toBe(200);
    const body = res.json<{
      retrieval: { mode: string; embeddings: string };
      endpoints: unknown[];
    }>();
    // Offline (no OPENAI_API_KEY): keywords fused with hashed word vectors.
    expect(body.retrieval).toEqual({
      mode: 'hybrid',
      embeddings: expect.stringMatching(/^hashing-v1:/),
    });
    expect(body.endpoints).toContainEqual({
      method: 'POST',
      path: '/ask',
      body: '{ question, top_k? }',
    });
  });

  it('indexes an upload, finds it, answers with sources, and deletes it', async () => {
    const uploaded = await client.post(
      '/upload',
      upload('tea.txt', 'Green tea is steeped at 80 degrees for two minutes.'),
    );
    expect([200, 201]).toContain(uploaded.statusCode);
    const { document_id } = uploaded.json<{ document_id: string }>();

    const search = await client.post('/search', { json: { query: 'green tea temperature' } });
    expect(search.json<{ results: { document_id: string }[] }>().results[0].document_id).toBe(
      document_id,
    );

    const ask = await client.post('/ask', {
      json: { question: 'How hot should green tea water be?' },
    });
    expect(ask.json()).toMatchObject({
      answer: expect.any(String),
      sources: [expect.objectContaining({ document: 'tea.txt' })],
    });

    expect((await client.delete(`/documents/${document_id}`)).json()).toEqual({
      status: 'deleted',
      document_id,
    });
    expect((await client.delete(`/documents/${document_id}`)).statusCode).toBe(404);
  });

  it("streams an answer after its sources, and remembers the session's questions", async () => {
    // A visitor of its own: the session's questions are this test's only.
    const client = visitor(new TestClient(app));
    const uploaded = await client.post(
      '/upload',
      upload('bikes.txt', 'Fix a flat tyre with a rubber patch.'),
    );
    const { document_id } = uploaded.json<{ document_id: string }>();
    await client.post('/ask', { json: { question: 'How do I fix a flat tyre?' } });
    const res = await client.post('/ask/stream', {
      json: { question: 'What do I need to fix a flat tyre?' },
    });
    const events = res.events();
    expect(events[0]).toMatchObject({ event: 'sources' });
    expect(JSON.parse(events[0].data)).toEqual([
      expect.objectContaining({ document: 'bikes.txt' }),
    ]);
    expect(events.slice(1).every((e) => e.event === 'message')).toBe(true);
    // The offline model counts the turns it was given: the first question was remembered.
    expect(
      events
        .slice(1)
        .map((e) => e.data)
        .join(''),
    ).toContain('message 2 of our conversation');
    expect((await client.post('/clear')).json()).toEqual({
      status: 'cleared',
    });
    expect((await client.delete(`/documents/${document_id}`)).statusCode).toBe(200);
  });

  it('finds nothing for an unrelated question and says the documents do not cover it', async () => {
    const uploaded = await client.post(
      '/upload',
      upload('coffee.txt', 'Descale the espresso machine once a month with citric acid.'),
    );
    const { document_id } = uploaded.json<{ document_id: string }>();
    const notCovered = 'The documents do not cover this question.';

    const search = await client.post('/search', {
      json: { query: 'Who won the football World Cup in 1998?' },
    });
    expect(search.json()).toMatchObject({ results: [] });
    expect(
      (await client.post('/search', { json: { query: 'xkqzv wplmrt' } })).json(),
    ).toMatchObject({ results: [] });

    const ask = await client.post('/ask', { json: { question: 'What is the capital of Peru?' } });
    expect(ask.json()).toEqual({ answer: notCovered, sources: [] });

    const stream = await client.post('/ask/stream', {
      json: { question: 'How do volcanoes form?' },
    });
    const events = stream.events();
    expect(events[0]).toMatchObject({ event: 'sources', data: '[]' });
    expect(
      events
        .slice(1)
        .map((e) => e.data)
        .join(''),
    ).toBe(notCovered);

    // A related question still gets the document as its source.
    const related = await client.post('/ask', {
      json: { question: 'How often is the espresso machine descaled?' },
    });
    expect(related.json()).toMatchObject({
      sources: [expect.objectContaining({ document: 'coffee.txt' })],
    });
    expect((await client.delete(`/documents/${document_id}`)).statusCode).toBe(200);
  });

  it("keeps each visitor's uploads to that visitor", async () => {
    const alice = visitor(new TestClient(app));
    const bob = visitor(new TestClient(app));
    const uploaded = await alice.post('/upload', upload('vault.txt', 'The vault code is 4711.'));
    const { document_id } = uploaded.json<{ document_id: string }>();
    const search = { json: { query: 'vault code' } };
    expect((await bob.post('/search', search)).json()).toMatchObject({ results: [] });
    expect((await bob.delete(`/documents/${document_id}`)).statusCode).toBe(404);
    const found = (await alice.post('/search', search)).json<{
      results: { document_id: string }[];
    }>();
    expect(found.results[0].document_id).toBe(document_id);
    expect((await alice.delete(`/documents/${document_id}`)).statusCode).toBe(200);
  });

  it('refuses an empty question and an oversized top_k', async () => {
    expect((await client.post('/ask', { json: { question: '' } })).statusCode).toBe(422);
    expect((await client.post('/search', { json: { query: 'x', top_k: 100000 } })).statusCode).toBe(
      422,
    );
  });
});
