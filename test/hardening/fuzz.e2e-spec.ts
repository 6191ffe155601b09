/**
 * Fuzzes every route of every app under test (the examples, the chatbot-style app, and whatever
 * `support/apps-under-test.ts` lists) with fast-check, over a real socket: arbitrary JSON bodies,
 * query strings, headers and methods. Whatever arrives, the server never answers 5xx, never
 * crashes, and every error body is `{ "error": string, ... }`. Seeds are fixed: runs repeat.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { APPS_UNDER_TEST } from './support/apps-under-test.js';
import { expectWellFormed } from './support/error-shape.js';
import {
  bodyArbitrary,
  headersArbitrary,
  multipartArbitrary,
  queryArbitrary,
} from './support/fuzz-arbitraries.js';
import { send, type HttpRequest } from './support/http-client.js';
import { concretePath, type CatalogRoute } from './support/route-catalog.js';
import { serve, type ServedApp } from './support/served-app.js';

const RUNS = 30;
const SEED = 20_260_801;
const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

/** Streams may not end by themselves: read a little, then leave like a client would. */
function requestFor(route: CatalogRoute, extra: Partial<HttpRequest>): HttpRequest {
  return {
    method: route.method,
    path: concretePath(route),
    ...(route.stream ? { readAtMost: { bytes: 16_384, ms: 300 } } : {}),
    ...extra,
  };
}

describe.each(APPS_UNDER_TEST)('fuzzing $name', ({ name, create, headers }) => {
  let served: ServedApp;

  beforeAll(async () => {
    served = await serve(name, await create(), headers);
    expect(served.routes.length).toBeGreaterThan(0);
  });

  afterAll(async () => {
    await served?.close();
  });

  it('answers arbitrary JSON bodies on every route without a 5xx', async () => {
    for (const route of served.routes) {
      await fc.assert(
        fc.asyncProperty(bodyArbitrary(route), async (body) => {
          const answer = await send(
            served.base,
            requestFor(route, {
              body: JSON.stringify(body),
              headers: { 'content-type': 'application/json' },
            }),
          );
          expectWellFormed(answer, `${route.method} ${route.path} ${JSON.stringify(body)}`);
        }),
        { numRuns: RUNS, seed: SEED },
      );
    }
  });

  it('answers arbitrary query strings on every route without a 5xx', async () => {
    for (const route of served.routes) {
      await fc.assert(
        fc.asyncProperty(queryArbitrary(route), async (query) => {
          const request = requestFor(route, {});
          const answer = await send(served.base, { ...request, path: `${request.path}?${query}` });
          expectWellFormed(answer, `${route.method} ${route.path}?${query}`);
        }),
        { numRuns: RUNS, seed: SEED },
      );
    }
  });

  it('answers arbitrary headers on every route without a 5xx', async () => {
    for (const route of served.routes) {
      await fc.assert(
        fc.asyncProperty(headersArbitrary(), async (headers) => {
          const answer = await send(
            served.base,
            requestFor(route, { headers, body: '{"user_id":"u","message":"m","text":"t"}' }),
          );
          expectWellFormed(answer, `${route.method} ${route.path} ${JSON.stringify(headers)}`);
        }),
        { numRuns: RUNS, seed: SEED },
      );
    }
  });

  it('answers arbitrary multipart bodies on every POST route (uploads included) without a 5xx', async () => {
    const posts = served.routes.filter((r) => r.method === 'POST');
    for (const route of posts) {
      await fc.assert(
        fc.asyncProperty(multipartArbitrary(), async ({ contentType, body }) => {
          const answer = await send(
            served.base,
            requestFor(route, { body, headers: { 'content-type': contentType } }),
          );
          expectWellFormed(
            answer,
            `${route.method} ${route.path} multipart ${contentType} ${body.toString('latin1', 0, 200)}`,
          );
        }),
        { numRuns: RUNS, seed: SEED },
      );
    }
  });

  it('answers every method on every path: 405 with Allow when the path is known', async () => {
    for (const route of served.routes) {
      for (const method of METHODS) {
        const answer = await send(served.base, requestFor({ ...route, method }, { body: '{}' }));
        expectWellFormed(answer, `${method} ${route.path}`);
        if (answer.status === 405) expect(answer.headers.allow).toContain(route.method);
      }
    }
  });

  it('keeps JSON keys such as __proto__ from polluting prototypes', async () => {
    for (const route of served.routes.filter((r) => r.method !== 'GET')) {
      const body = '{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}';
      const answer = await send(
        served.base,
        requestFor(route, { body, headers: { 'content-type': 'application/json' } }),
      );
      expectWellFormed(answer, `${route.method} ${route.path} ${body}`);
    }
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
  });

  it('is still healthy afterwards', async () => {
    const health = served.routes.find((r) => r.path === '/health');
    const answer = await send(served.base, {
      method: 'GET',
      path: health ? '/health' : '/openapi.json',
    });
    expect(answer.status).toBe(200);
  });
});
