import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { writeFileSync } from 'node:fs';
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

const ORIGIN = 'https://app.example';

describe('toolkit new -t api, end to end', () => {
  let project: GeneratedProject;
  let server: DevServer | undefined;
  let key: string;

  beforeAll(async () => {
    assertCliBuilt();
    project = await generateProject('api', 'e2e-api');
    key = /^API_KEYS=([0-9a-f]{64})$/m.exec(project.read('.env'))?.[1] ?? '';
    await npmInstall(project);
  }, 180_000);
  afterAll(async () => {
    await server?.kill();
    project?.cleanup();
  }, 30_000);

  it('generates a random API key into .env', () => {
    expect(key).toMatch(/^[0-9a-f]{64}$/);
  });

  it('installs one copy of Nest (the guards inject Reflector) and passes npm test', async () => {
    expect(installedCopies(project, '@nestjs/core')).toEqual(['node_modules/@nestjs/core']);
    expect(installedCopies(project, '@nestjs/common')).toEqual(['node_modules/@nestjs/common']);
    await expectOwnTestsPass(project);
  }, 120_000);

  it('type-checks with its own npm run typecheck', async () => {
    await expectTypeChecks(project);
  }, 90_000);

  it('is served by toolkit dev --no-reload (rate limit 3 a minute from the environment)', async () => {
    // Origins from .env (read when the app has started), the limit from the process environment.
    writeFileSync(
      project.path('.env'),
      project
        .read('.env')
        .replace(/^CORS_ORIGINS=.*$/m, `CORS_ORIGINS=${ORIGIN},https://admin.example`),
    );
    server = await startDevServer(project, { RATE_LIMIT_PER_MINUTE: '3' });
    expect(server.cli.stdout()).toMatch(/LLM: +echo \(offline/);
  }, 90_000);

  it('GET / and GET /health are public', async () => {
    expect(await requestJson(`${server!.url}/`)).toMatchObject({
      status: 200,
      body: {
        name: 'e2e-api',
        version: '0.1.0',
        endpoints: expect.arrayContaining([expect.objectContaining({ path: '/complete' })]),
      },
    });
    expect(await requestJson(`${server!.url}/health`)).toMatchObject({
      status: 200,
      body: { status: 'healthy', version: '0.1.0' },
    });
  });

  it('answers 401 with WWW-Authenticate without a valid key', async () => {
    const missing = await requestJson(`${server!.url}/complete`, { json: { prompt: 'Hi' } });
    expect(missing).toMatchObject({ status: 401, body: { error: 'An API key is required' } });
    expect(missing.headers.get('www-authenticate')).toMatch(/^Bearer/);
    const wrong = await requestJson(`${server!.url}/chat`, {
      json: { message: 'Hi' },
      headers: { authorization: `Bearer ${key.replace(/.$/, (c) => (c === '0' ? '1' : '0'))}` },
    });
    expect(wrong).toMatchObject({ status: 401, body: { error: 'Invalid API key' } });
  });

  it('answers CORS preflights for the origins in CORS_ORIGINS only', async () => {
    const preflight = (origin: string) =>
      fetch(`${server!.url}/complete`, {
        method: 'OPTIONS',
        headers: {
          origin,
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'authorization,content-type',
        },
      });
    const allowed = await preflight(ORIGIN);
    expect(allowed.status).toBe(204);
    expect(allowed.headers.get('access-control-allow-origin')).toBe(ORIGIN);
    expect(allowed.headers.get('access-control-allow-methods')).toContain('POST');
    expect(allowed.headers.get('access-control-allow-headers')?.toLowerCase()).toContain(
      'authorization',
    );
    const other = await preflight('https://evil.example');
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('accepts the key as Bearer token and as X-API-Key, then answers 429 past the limit', async () => {
    const complete = await requestJson(`${server!.url}/complete`, {
      json: { prompt: 'Write a haiku', max_tokens: 50, temperature: 0.5 },
      headers: { authorization: `Bearer ${key}` },
    });
    expect(complete).toMatchObject({ status: 200, body: { completion: expect.any(String) } });
    expect(complete.headers.get('x-ratelimit-limit')).toBe('3');
    expect(complete.headers.get('x-ratelimit-remaining')).toBe('2');
    const chat = await requestJson(`${server!.url}/chat`, {
      json: { message: 'Hello', history: [{ role: 'user', content: 'Earlier' }] },
      headers: { 'x-api-key': key, origin: ORIGIN },
    });
    expect(chat).toMatchObject({ status: 200, body: { response: expect.any(String) } });
    expect(chat.headers.get('access-control-allow-origin')).toBe(ORIGIN);
    const third = await requestJson(`${server!.url}/chat`, {
      json: { message: 'Again' },
      headers: { 'x-api-key': key },
    });
    expect(third.status).toBe(200);

    const limited = await requestJson(`${server!.url}/complete`, {
      json: { prompt: 'One more' },
      headers: { authorization: `Bearer ${key}` },
    });
    expect(limited).toMatchObject({
      status: 429,
      body: { error: expect.stringMatching(/^Rate limit exceeded/) },
    });
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    // Public routes are not counted.
    expect((await requestJson(`${server!.url}/health`)).status).toBe(200);
  });

  it('shares the rate limit between two processes on the same Redis', async () => {
    const env = {
      RATE_LIMIT_PER_MINUTE: '4',
      TOOLKIT_CACHE_BACKEND: 'redis',
      TOOLKIT_CACHE_REDIS_URL: 'redis://127.0.0.1:6379',
      TOOLKIT_CACHE_KEY_PREFIX: `e2e-api-${process.pid}-${Date.now()}:`,
    };
    const one = await startDevServer(project, env);
    const two = await startDevServer(project, env).catch(async (error: unknown) => {
      await one.kill();
      throw error;
    });
    try {
      const complete = (target: DevServer) =>
        requestJson(`${target.url}/complete`, {
          json: { prompt: 'Hi' },
          headers: { authorization: `Bearer ${key}` },
        });
      const answers = [];
      for (const target of [one, two, one, two, one, two]) answers.push(await complete(target));
      // One count for both: 4 allowed in all, then both refuse, whichever process answers.
      expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 429, 429]);
      expect(answers.map((a) => a.headers.get('x-ratelimit-remaining'))).toEqual([
        '3',
        '2',
        '1',
        '0',
        '0',
        '0',
      ]);
      expect(Number(answers[5].headers.get('retry-after'))).toBeGreaterThan(0);
    } finally {
      await Promise.all([one.interrupt(), two.interrupt()]);
    }
  }, 120_000);

  it('stops on Ctrl+C (SIGINT) with exit status 0', async () => {
    const pid = server!.serverPid;
    expect(await server!.interrupt()).toEqual({ code: 0, signal: null });
    expect(await eventually(() => !isAlive(pid), 5_000)).toBe(true);
  }, 30_000);
});
