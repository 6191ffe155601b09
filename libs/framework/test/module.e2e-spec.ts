import { afterAll, afterEach, describe, expect, it, jest } from '@jest/globals';
import { Body, Controller, Get, Inject, Post } from '@nestjs/common';
import { IsInt, IsString, Min } from 'class-validator';
import { Server } from 'node:net';
import { App, Arg, Route, TOOLKIT_CONFIG, type ToolkitConfig } from 'toolkit';
import { createMockApp, TestClient } from 'toolkit/testing';

class CreateItemDto {
  @IsString() name!: string;
  @IsInt() @Min(1) quantity!: number;
}

@Controller('items')
class ItemsController {
  constructor(@Inject(TOOLKIT_CONFIG) private readonly config: ToolkitConfig) {}

  @Get('/plain')
  plain() {
    return 'nest decides';
  }

  @Route('/:id', { methods: ['GET'] })
  get(@Arg('id') id: string, @Arg('verbose', { default: false }) verbose: boolean) {
    return { id, verbose, model: this.config.llm.default_model };
  }

  @Route('/', { methods: ['POST'], summary: 'Create an item' })
  create(@Arg('name') name: string, @Arg('quantity', { type: 'integer' }) quantity: number) {
    return [{ name, quantity }, 201];
  }

  @Post('/dto')
  dto(@Body() body: CreateItemDto) {
    return { received: body.name };
  }
}

describe('createMockApp + TestClient', () => {
  afterEach(() => {
    jest.restoreAllMocks();
  });

  it('serves /health and /echo in-process without opening a socket', async () => {
    const listen = jest.spyOn(Server.prototype, 'listen');
    const app = createMockApp();
    const client = new TestClient(app);
    const health = await client.get('/health');
    expect(health.statusCode).toBe(200);
    expect(health.json()).toEqual({ status: 'healthy' });
    const echo = await client.post('/echo', { json: { message: 'hi there' } });
    expect(echo.json()).toEqual({ echo: 'hi there' });
    expect(listen).not.toHaveBeenCalled();
    const nest = await app.init();
    expect((nest.getHttpServer() as Server).listening).toBe(false);
    await app.close();
  });
});

describe('controllers, DTOs and OpenAPI', () => {
  const app = new App({
    title: 'inventory',
    version: '2.1.0',
    controllers: [ItemsController],
    config: { llm: { default_model: 'echo' } },
    logger: false,
    cwd: '/nonexistent',
  });
  const client = new TestClient(app);
  afterAll(async () => {
    await app.close();
  });

  it('binds path and query parameters with @Arg and converts their types', async () => {
    const res = await client.get('/items/42', { params: { verbose: 'true' } });
    expect(res.json()).toEqual({ id: '42', verbose: true, model: 'echo' });
  });

  it('returns a [body, 201] tuple from a controller', async () => {
    const res = await client.post('/items', { json: { name: 'pen', quantity: 3 } });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({ name: 'pen', quantity: 3 });
    const bad = await client.post('/items', { json: { name: 'pen', quantity: 1.5 } });
    expect(bad.statusCode).toBe(422);
    expect(bad.json<{ details: unknown[] }>().details).toEqual([
      { param: 'quantity', problem: 'must be an integer (got number 1.5)' },
    ]);
  });

  it('validates DTOs with class-validator into the same 422 shape', async () => {
    const bad = await client.post('/items/dto', { json: { name: 3, quantity: 0 } });
    expect(bad.statusCode).toBe(422);
    const params = bad.json<{ details: { param: string }[] }>().details.map((d) => d.param);
    expect(new Set(params)).toEqual(new Set(['name', 'quantity']));
    const ok = await client.post('/items/dto', { json: { name: 'pen', quantity: 2 } });
    expect(ok.json()).toEqual({ received: 'pen' });
  });

  it('leaves plain Nest routes to Nest', async () => {
    const res = await client.get('/items/plain');
    expect(res.statusCode).toBe(200);
    expect(res.text()).toBe('nest decides');
  });

  it('serves an OpenAPI document listing every route with its parameters', async () => {
    const doc = (await client.get('/openapi.json')).json<{
      info: { title: string; version: string };
      paths: Record<
        string,
        Record<
          string,
          { parameters: { name: string; in: string }[]; requestBody?: unknown; summary: string }
        >
      >;
    }>();
    expect(doc.info).toEqual({ title: 'inventory', version: '2.1.0' });
    expect(Object.keys(doc.paths).sort()).toEqual([
      '/items',
      '/items/dto',
      '/items/plain',
      '/items/{id}',
    ]);
    expect(doc.paths['/items/{id}'].get.parameters).toEqual([
      { name: 'id', in: 'path', required: true, schema: { type: 'string' } },
      {
        name: 'verbose',
        in: 'query',
        required: false,
        schema: { type: 'boolean', default: false },
      },
    ]);
    expect(doc.paths['/items'].post.summary).toBe('Create an item');
    expect(doc.paths['/items'].post.requestBody).toEqual({
      required: true,
      content: {
        'application/json': {
          schema: {
            type: 'object',
            properties: { name: { type: 'string' }, quantity: { type: 'integer' } },
            required: ['name', 'quantity'],
          },
        },
      },
    });
  });
});
