/**
 * Toolkit's return rules through Nest's public seams: on toolkit's adapters (`ToolkitExpressAdapter`,
 * `ToolkitFastifyAdapter`, which override `reply`) and, in an application that keeps Nest's own
 * adapter, through the global interceptor `ToolkitModule` adds. Both give the same answers, and
 * neither replaces a method of the adapter at run time.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Controller, Get, HttpCode, Module, Post, type INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Route, ToolkitModule } from 'toolkit';
import { ToolkitExpressAdapter } from 'toolkit/express';
import { ToolkitFastifyAdapter } from 'toolkit/fastify';
import { TestClient } from 'toolkit/testing';
import { testAdapter, testPlatform } from '../../../test/support/platform.js';

@Controller('rules')
class RulesController {
  @Route('/text', { methods: ['POST'] })
  text() {
    return 'plain words';
  }

  @Route('/nothing', { methods: ['POST'] })
  nothing() {
    return undefined;
  }

  @Route('/bytes')
  bytes() {
    return Buffer.from('raw bytes');
  }

  @Route('/object', { methods: ['POST'] })
  object() {
    return { ok: true };
  }

  @Route('/number')
  number() {
    return 42;
  }

  @Route('/null')
  null() {
    return null;
  }

  @Route('/tuple', { methods: ['POST'] })
  tuple() {
    return [{ queued: true }, 202];
  }

  @Route('/accepted', { methods: ['POST'] })
  @HttpCode(202)
  accepted() {
    return { accepted: true };
  }

  @Route('/accepted-nothing', { methods: ['POST'] })
  @HttpCode(202)
  acceptedNothing() {
    return undefined;
  }
}

/** A plain Nest route beside them: Nest's own answers. */
@Controller('plain')
class PlainController {
  @Post()
  created() {
    return 'made';
  }

  @Get('pair')
  pair() {
    return ['x', 418];
  }
}

function toolkitAdapter(): ToolkitExpressAdapter | ToolkitFastifyAdapter {
  return testPlatform() === 'fastify' ? new ToolkitFastifyAdapter() : new ToolkitExpressAdapter();
}

const SETUPS = [
  {
    name: "toolkit's adapter, with adapterReplies",
    adapter: toolkitAdapter,
    module: ToolkitModule.forRoot({ adapterReplies: true }),
  },
  {
    name: "toolkit's adapter, with the module's interceptor too",
    adapter: toolkitAdapter,
    module: ToolkitModule.forRoot(),
  },
  {
    name: "Nest's own adapter and the module's interceptor",
    adapter: testAdapter,
    module: ToolkitModule.forRoot(),
  },
];

describe.each(SETUPS)('return rules on $name', ({ adapter, module }) => {
  let nest: INestApplication;
  let client: TestClient;
  beforeAll(async () => {
    @Module({ imports: [module], controllers: [RulesController, PlainController] })
    class RulesModule {}
    nest = await NestFactory.create(RulesModule, adapter(), { logger: false });
    await nest.init();
    client = new TestClient(nest);
  });
  afterAll(async () => {
    await nest.close();
  });

  it('answers a string as text/plain, 200 even for POST', async () => {
    const res = await client.post('/rules/text');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(res.text()).toBe('plain words');
  });

  it('answers undefined with 204 and no body', async () => {
    const res = await client.post('/rules/nothing');
    expect(res.statusCode).toBe(204);
    expect(res.text()).toBe('');
  });

  it('answers a Buffer as application/octet-stream, with its length', async () => {
    const res = await client.get('/rules/bytes');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/octet-stream');
    expect(res.headers['content-length']).toBe('9');
    expect(res.text()).toBe('raw bytes');
  });

  it('answers objects and JSON scalars as JSON', async () => {
    const object = await client.post('/rules/object');
    expect(object.statusCode).toBe(200);
    expect(object.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(object.json()).toEqual({ ok: true });
    for (const [path, value] of [
      ['/rules/number', 42],
      ['/rules/null', null],
    ] as const) {
      const res = await client.get(path);
      expect({ path, status: res.statusCode, type: res.headers['content-type'] }).toEqual({
        path,
        status: 200,
        type: 'application/json; charset=utf-8',
      });
      expect(res.json()).toEqual(value);
    }
  });

  it('takes the status of a [body, status] tuple, and @HttpCode over the defaults', async () => {
    const tuple = await client.post('/rules/tuple');
    expect(tuple.statusCode).toBe(202);
    expect(tuple.json()).toEqual({ queued: true });
    const accepted = await client.post('/rules/accepted');
    expect(accepted.statusCode).toBe(202);
    expect(accepted.json()).toEqual({ accepted: true });
    expect((await client.post('/rules/accepted-nothing')).statusCode).toBe(202);
  });

  it("leaves plain Nest routes Nest's answers", async () => {
    const created = await client.post('/plain');
    expect(created.statusCode).toBe(201);
    expect(created.text()).toBe('made');
    const pair = await client.get('/plain/pair');
    expect(pair.statusCode).toBe(200);
    expect(pair.json()).toEqual(['x', 418]);
  });

  it("replaces no method of the adapter: its reply is its class's", () => {
    const httpAdapter = nest.getHttpAdapter();
    expect(Object.hasOwn(httpAdapter, 'reply')).toBe(false);
    expect(httpAdapter.reply).toBe(Object.getPrototypeOf(httpAdapter).reply);
  });
});
