/**
 * Oversized and malformed input on every endpoint of every app under test, over a real socket:
 * the statuses SPEC 3.2 names (413 too large, 400 not JSON / not an object, 422 missing or
 * wrongly typed, naming each parameter), JSON `{ "error" }` bodies, and never a hang: every
 * request has its own timeout.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { gzipSync } from 'node:zlib';
import { APPS_UNDER_TEST } from './support/apps-under-test.js';
import { expectWellFormed } from './support/error-shape.js';
import { jsonOf, send, type HttpAnswer, type HttpRequest } from './support/http-client.js';
import {
  concretePath,
  sampleValue,
  type CatalogParam,
  type CatalogRoute,
} from './support/route-catalog.js';
import { serve, type ServedApp } from './support/served-app.js';

const MiB = 1024 * 1024;
const JSON_TYPE = { 'content-type': 'application/json' };

/** A request that is valid for the route, except for what `body`/`query` override. */
function validRequest(route: CatalogRoute, overrides: Record<string, unknown> = {}): HttpRequest {
  const values = (where: CatalogParam['in']): Record<string, unknown> =>
    Object.fromEntries(
      route.params
        .filter((p) => p.in === where && p.required)
        .map((p) => [p.name, sampleValue(p.type)]),
    );
  const body = { ...values('body'), ...pick(overrides, route, 'body') };
  const query = { ...values('query'), ...pick(overrides, route, 'query') };
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value !== undefined)
      search.append(name, typeof value === 'string' ? value : JSON.stringify(value));
  }
  const qs = search.toString();
  return {
    method: route.method,
    path: `${concretePath(route)}${qs ? `?${qs}` : ''}`,
    ...(route.method === 'GET' ? {} : { body: JSON.stringify(body), headers: JSON_TYPE }),
    ...(route.stream ? { readAtMost: { bytes: 16_384, ms: 300 } } : {}),
  };
}

function pick(
  overrides: Record<string, unknown>,
  route: CatalogRoute,
  where: CatalogParam['in'],
): Record<string, unknown> {
  const names = new Set(route.params.filter((p) => p.in === where).map((p) => p.name));
  return Object.fromEntries(Object.entries(overrides).filter(([name]) => names.has(name)));
}

/** A value of another type than declared, as it travels in the body or the query string. */
function wrongValue(param: CatalogParam): unknown {
  if (param.in === 'query') {
    return { number: 'abc', integer: '1.5', boolean: 'maybe', object: 'x' }[param.type];
  }
  return { string: 42, number: 'abc', integer: 1.5, boolean: 'yes', array: 'x', object: [1] }[
    param.type
  ];
}

function expectStatus(answer: HttpAnswer, status: number, context: string): void {
  expectWellFormed(answer, context);
  expect({ context, status: answer.status }).toEqual({ context, status });
}

describe.each(APPS_UNDER_TEST)('hostile input against $name', ({ name, create, headers }) => {
  let served: ServedApp;
  const bodyRoutes = (): CatalogRoute[] =>
    served.routes.filter((r) => r.params.some((p) => p.in === 'body'));

  beforeAll(async () => {
    served = await serve(name, await create(), headers);
  });

  afterAll(async () => {
    await served?.close();
  });

  it('answers 413 stating the limit for a body over 1 MiB, on every route', async () => {
    const huge = JSON.stringify({ text: 'a'.repeat(MiB) });
    for (const route of served.routes) {
      const answer = await send(served.base, {
        ...validRequest(route),
        body: huge,
        headers: JSON_TYPE,
      });
      expectStatus(answer, 413, `${route.method} ${route.path} with 1 MiB`);
      expect((jsonOf(answer) as { error: string }).error).toMatch(/1 MiB|1048576/);
    }
  });

  it('answers 400 for bodies that are not JSON, on every route', async () => {
    const broken = ['{"a":', "{'a':1}", '{"a":1}}', '[', 'undefined', '\u0000', '{"a":1,}'];
    for (const route of served.routes) {
      for (const body of broken) {
        const answer = await send(served.base, {
          ...validRequest(route),
          body,
          headers: JSON_TYPE,
        });
        expectStatus(answer, 400, `${route.method} ${route.path} ${JSON.stringify(body)}`);
      }
    }
  });

  it('answers 400 for JSON that is not an object where parameters are expected', async () => {
    for (const route of bodyRoutes()) {
      for (const body of ['[1,2]', '[]', '"text"', '42', 'true', 'null']) {
        const answer = await send(served.base, {
          ...validRequest(route),
          body,
          headers: JSON_TYPE,
        });
        expectStatus(answer, 400, `${route.method} ${route.path} ${body}`);
      }
    }
  });

  it('answers 422 naming each missing required parameter', async () => {
    for (const route of served.routes) {
      for (const param of route.params.filter((p) => p.required && p.in !== 'path')) {
        const answer = await send(served.base, validRequest(route, { [param.name]: undefined }));
        const context = `${route.method} ${route.path} without ${param.name}`;
        expectStatus(answer, 422, context);
        const details = (jsonOf(answer) as { details?: { param: string }[] }).details ?? [];
        expect({ context, named: details.map((d) => d.param) }).toEqual({
          context,
          named: expect.arrayContaining([param.name]),
        });
      }
    }
  });

  it('answers 422 naming each wrongly typed parameter', async () => {
    for (const route of served.routes) {
      // Path parameters are always text, so they cannot have a wrong type.
      for (const param of route.params.filter(
        (p) => p.in !== 'path' && wrongValue(p) !== undefined,
      )) {
        const answer = await send(
          served.base,
          validRequest(route, { [param.name]: wrongValue(param) }),
        );
        const context = `${route.method} ${route.path} ${param.name}=${JSON.stringify(wrongValue(param))}`;
        expectStatus(answer, 422, context);
        const details = (jsonOf(answer) as { details?: { param: string }[] }).details ?? [];
        expect({ context, named: details.map((d) => d.param) }).toEqual({
          context,
          named: expect.arrayContaining([param.name]),
        });
      }
    }
  });

  it('never fails on deeply nested JSON', async () => {
    const depth = 50_000;
    const nestedArray = `${'['.repeat(depth)}${']'.repeat(depth)}`;
    const nestedObject = `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
    for (const route of bodyRoutes()) {
      for (const param of route.params.filter((p) => p.in === 'body')) {
        for (const nested of [nestedArray, nestedObject]) {
          const request = validRequest(route);
          const valid = JSON.parse(request.body as string) as Record<string, unknown>;
          const body = `{${Object.entries(valid)
            .filter(([k]) => k !== param.name)
            .map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)},`)
            .join('')}${JSON.stringify(param.name)}:${nested}}`;
          const answer = await send(served.base, { ...request, body, headers: JSON_TYPE });
          expectWellFormed(
            answer,
            `${route.method} ${route.path} ${param.name} nested ${depth} deep`,
          );
        }
      }
    }
  });

  it('answers odd encodings, charsets and content types with a 4xx, never a 5xx', async () => {
    const cases: {
      label: string;
      headers: Record<string, string>;
      body: string | Buffer;
      status?: number;
    }[] = [
      {
        label: 'unknown charset',
        headers: { 'content-type': 'application/json; charset=klingon' },
        body: '{}',
        status: 415,
      },
      {
        label: 'unknown encoding',
        headers: { ...JSON_TYPE, 'content-encoding': 'x-unknown' },
        body: '{}',
        status: 415,
      },
      {
        label: 'broken gzip',
        headers: { ...JSON_TYPE, 'content-encoding': 'gzip' },
        body: 'not gzip',
        status: 400,
      },
      {
        label: 'gzip of bad JSON',
        headers: { ...JSON_TYPE, 'content-encoding': 'gzip' },
        body: gzipSync('{"a":'),
        status: 400,
      },
      {
        label: 'gzip bomb',
        headers: { ...JSON_TYPE, 'content-encoding': 'gzip' },
        body: gzipSync(Buffer.alloc(8 * MiB, 32)),
        status: 413,
      },
      {
        label: 'invalid UTF-8',
        headers: JSON_TYPE,
        body: Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0x31, 0x7d]),
      },
      {
        label: 'form with 5,000 fields',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: Array.from({ length: 5_000 }, (_, i) => `f${i}=1`).join('&'),
        status: 413,
      },
      {
        label: 'multipart without boundary',
        headers: { 'content-type': 'multipart/form-data' },
        body: '--x--',
      },
      { label: 'text/plain', headers: { 'content-type': 'text/plain' }, body: 'hello' },
    ];
    for (const route of served.routes) {
      for (const c of cases) {
        const answer = await send(served.base, {
          ...validRequest(route),
          headers: c.headers,
          body: c.body,
        });
        const context = `${route.method} ${route.path} ${c.label}`;
        if (c.status) expectStatus(answer, c.status, context);
        else expectWellFormed(answer, context);
      }
    }
  });

  it('answers malformed paths and oversized headers without hanging', async () => {
    for (const path of ['/%E0%A4%A', '/%', `/${'a'.repeat(10_000)}`, '/..%2F..%2Fetc%2Fpasswd']) {
      expectWellFormed(await send(served.base, { method: 'GET', path }), `GET ${path}`);
    }
    for (const route of served.routes) {
      const answer = await send(served.base, {
        ...validRequest(route),
        headers: { ...JSON_TYPE, 'x-big': 'a'.repeat(64 * 1024) },
      });
      // Node's own parser refuses it before any route runs.
      expect(answer.status).toBe(431);
    }
  });
});
