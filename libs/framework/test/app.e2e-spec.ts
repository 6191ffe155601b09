import { afterAll, describe, expect, it } from '@jest/globals';
import { TestClient } from 'toolkit/testing';
import { App } from 'toolkit';
import { app } from '../../../examples/quickstart/app.js';

describe('one-file app: parameters, return rules and HTTP errors', () => {
  const client = new TestClient(app);
  afterAll(async () => {
    await app.close();
  });

  it('uses the default when an optional parameter is omitted', async () => {
    const res = await client.post('/translate', { json: { text: 'hello' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.json()).toEqual({ translation: '[Spanish] hello', language: 'Spanish' });
  });

  it('uses a given optional parameter', async () => {
    const res = await client.post('/translate', { json: { text: 'hello', target_lang: 'French' } });
    expect(res.json()).toEqual({ translation: '[French] hello', language: 'French' });
  });

  it('answers 422 naming a missing required parameter', async () => {
    const res = await client.post('/translate', { json: { target_lang: 'French' } });
    expect(res.statusCode).toBe(422);
    const body = res.json<{ error: string; details: { param: string; problem: string }[] }>();
    expect(body.error).toContain('text');
    expect(body.details).toEqual([{ param: 'text', problem: 'is required' }]);
  });

  it('answers 422 for a wrongly typed parameter, naming every bad one', async () => {
    const res = await client.post('/translate', { json: { text: 5, target_lang: false } });
    expect(res.statusCode).toBe(422);
    const details = res.json<{ details: { param: string }[] }>().details.map((d) => d.param);
    expect(details).toEqual(['text', 'target_lang']);
  });

  it('answers 400 for a body that is not JSON', async () => {
    const res = await client.post('/translate', {
      data: 'not json',
      headers: { 'content-type': 'application/json' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json<{ error: string }>().error).toMatch(/Invalid JSON body/);
  });

  it('answers 415 for parameters sent in a body of a type it does not read (text/plain)', async () => {
    for (const type of ['text/plain', 'text/plain; charset=utf-8', 'application/xml']) {
      const res = await client.post('/translate', {
        data: 'text=hello',
        headers: { 'content-type': type },
      });
      expect(res.statusCode).toBe(415);
      expect(res.json()).toEqual({
        error: `Content-Type ${type.split(';')[0]} is not read here: send the parameters as application/json (or a form)`,
      });
    }
    // Parameters that arrive anyway (here in the query) are not refused for the body beside them.
    const inQuery = await client.post('/translate?text=hello', {
      data: '',
      headers: { 'content-type': 'text/plain' },
    });
    expect(inQuery.statusCode).toBe(200);
  });

  it('answers 400 for JSON that is not an object', async () => {
    const res = await client.post('/translate', { json: ['text'] });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: 'Request body must be a JSON object' });
  });

  it('answers 405 with Allow for a known path and a wrong method', async () => {
    const res = await client.get('/translate');
    expect(res.statusCode).toBe(405);
    expect(res.headers.allow).toBe('POST');
    expect(res.json<{ error: string }>().error).toBe('Method Not Allowed');
  });

  it('answers 404 with a JSON body for an unknown path', async () => {
    const res = await client.get('/nope');
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error: 'Not Found' });
  });

  it('answers 413 for a body over the 1 MiB default limit, stating the limit', async () => {
    const res = await client.post('/translate', { json: { text: 'x'.repeat(2 * 1024 * 1024) } });
    expect(res.statusCode).toBe(413);
    expect(res.json<{ error: string }>().error).toContain('1 MiB');
  });

  it('converts query-string values to the declared types', async () => {
    const ok = await client.get('/divide', { params: { a: 6, b: 3 } });
    expect(ok.json()).toEqual({ result: 2 });
    const bad = await client.get('/divide', { params: { a: 'six', b: 3 } });
    expect(bad.statusCode).toBe(422);
    expect(bad.json<{ details: unknown[] }>().details).toEqual([
      { param: 'a', problem: 'must be a number (got "six")' },
    ]);
  });

  it('answers a [body, status] tuple with that status and body', async () => {
    const res = await client.get('/divide', { params: { a: 1, b: 0 } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: 'b must not be zero' });
  });
});

describe('return rules and 500s', () => {
  const build = (debug: boolean) => {
    const app = new App({ logger: false, config: { app: { debug } }, cwd: '/nonexistent' });
    app.route('/text', {}, () => 'plain words');
    app.route('/nothing', { methods: ['DELETE'] }, () => undefined);
    app.route('/object', { methods: ['GET', 'POST'] }, () => ({ ok: true }));
    app.route('/boom', {}, () => {
      throw new Error('database password leaked? no: just a bug');
    });
    return app;
  };

  it('string → text/plain, undefined → 204, object → JSON 200 (POST too)', async () => {
    const app = build(false);
    const client = new TestClient(app);
    const text = await client.get('/text');
    expect(text.headers['content-type']).toMatch(/^text\/plain/);
    expect(text.text()).toBe('plain words');
    const none = await client.delete('/nothing');
    expect(none.statusCode).toBe(204);
    expect(none.text()).toBe('');
    const posted = await client.post('/object');
    expect(posted.statusCode).toBe(200);
    expect(posted.json()).toEqual({ ok: true });
    const put = await client.put('/object');
    expect(put.statusCode).toBe(405);
    expect(put.headers.allow).toBe('GET, POST');
    await app.close();
  });

  it('hides an exception behind a plain 500 unless debug is on', async () => {
    const quiet = build(false);
    const res = await new TestClient(quiet).get('/boom');
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({ error: 'Internal Server Error' });
    await quiet.close();

    const debug = build(true);
    const shown = await new TestClient(debug).get('/boom');
    expect(shown.statusCode).toBe(500);
    const body = shown.json<{ error: string; message: string; stack: string[] }>();
    expect(body.error).toBe('Internal Server Error');
    expect(body.message).toContain('just a bug');
    expect(body.stack.length).toBeGreaterThan(1);
    await debug.close();
  });

  it('turns DEBUG=true in the environment into debug mode', async () => {
    const previous = process.env.DEBUG;
    process.env.DEBUG = 'true';
    try {
      const app = build(false);
      const res = await new TestClient(app).get('/boom');
      expect(res.json<{ message?: string }>().message).toContain('just a bug');
      await app.close();
    } finally {
      if (previous === undefined) delete process.env.DEBUG;
      else process.env.DEBUG = previous;
    }
  });
});

describe('parameter constraints and CORS', () => {
  it('answers 422 listing the allowed values for a oneOf parameter', async () => {
    const app = new App({
      logger: false,
      cwd: '/nonexistent',
      cors: { origin: 'https://example.test' },
    });
    app.route(
      '/generate',
      {
        methods: ['POST'],
        params: { style: { type: 'string', oneOf: ['formal', 'casual'], default: 'formal' } },
      },
      ({ style }) => ({ style }),
    );
    const client = new TestClient(app);
    expect((await client.post('/generate', { json: {} })).json()).toEqual({ style: 'formal' });
    const bad = await client.post('/generate', { json: { style: 'pirate' } });
    expect(bad.statusCode).toBe(422);
    expect(bad.json()).toMatchObject({
      details: [
        { param: 'style', problem: 'must be one of "formal", "casual" (got string "pirate")' },
      ],
    });
    const preflight = await client.request('OPTIONS', '/generate', {
      headers: { origin: 'https://example.test', 'access-control-request-method': 'POST' },
    });
    expect(preflight.statusCode).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBe('https://example.test');
    await app.close();
  });
});
