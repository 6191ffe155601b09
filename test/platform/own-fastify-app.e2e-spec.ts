/**
 * `ToolkitModule` inside an application of the user's own on `@nestjs/platform-fastify`
 * (`NestFactory.create(AppModule, new FastifyAdapter())`): toolkit finds the platform at run time
 * and answers as on Express — routes, the error table, streams, and, with `installBodyParsers`,
 * the same body errors as `App`.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Controller, Module, type INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { Arg, installBodyParsers, Route, Stream, ToolkitModule } from 'toolkit';
import { TestClient } from 'toolkit/testing';

@Controller()
class NotesController {
  @Route('/notes', { methods: ['POST'] })
  add(@Arg('text', { maxLength: 20 }) text: string) {
    return [{ saved: text }, 201];
  }

  @Route('/notes/stream')
  @Stream()
  async *stream() {
    yield 'one';
    yield 'two';
  }
}

@Module({
  imports: [ToolkitModule.forRoot({ errors: 'all', cwd: '/nonexistent-toolkit-own-fastify' })],
  controllers: [NotesController],
})
class AppModule {}

async function create(parsers: boolean): Promise<INestApplication> {
  const nest = await NestFactory.create(AppModule, new FastifyAdapter(), {
    logger: false,
    ...(parsers ? { bodyParser: false } : {}),
  });
  if (parsers) installBodyParsers(nest, 64);
  await nest.init();
  return nest;
}

describe("ToolkitModule in the user's own Fastify application", () => {
  let withParsers: INestApplication;
  let withNestParsers: INestApplication;
  let client: TestClient;

  beforeAll(async () => {
    withParsers = await create(true);
    withNestParsers = await create(false);
    client = new TestClient(withParsers);
  });
  afterAll(() => Promise.all([withParsers.close(), withNestParsers.close()]));

  it('runs on Fastify and answers toolkit routes by toolkit rules', async () => {
    expect(withParsers.getHttpAdapter().getType()).toBe('fastify');
    const saved = await client.post('/notes', { json: { text: 'hi' } });
    expect([saved.statusCode, saved.json()]).toEqual([201, { saved: 'hi' }]);
    const stream = await client.get('/notes/stream');
    expect(stream.headers['content-type']).toMatch(/^text\/event-stream/);
    expect(stream.text()).toContain('data: two');
  });

  it('answers the error table with { error } bodies', async () => {
    const invalid = await client.post('/notes', { json: { text: 'x'.repeat(30) } });
    expect(invalid.statusCode).toBe(422);
    const tooLarge = await client.post('/notes', { json: { text: 'x'.repeat(100) } });
    expect([tooLarge.statusCode, tooLarge.json()]).toEqual([
      413,
      { error: 'Request body exceeds the limit of 64 bytes', limit: 64 },
    ]);
    const malformed = await client.post('/notes', {
      data: '{"text":',
      headers: { 'content-type': 'application/json' },
    });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toEqual({ error: expect.stringMatching(/^Invalid JSON body: /) });
    const wrongMethod = await client.delete('/notes');
    expect([wrongMethod.statusCode, wrongMethod.headers.allow]).toEqual([405, 'POST']);
    const unknown = await client.get('/nowhere');
    expect([unknown.statusCode, unknown.json()]).toEqual([404, { error: 'Not Found' }]);
  });

  it("keeps Nest's own body parsers when installBodyParsers is not called: still { error }", async () => {
    const malformed = await new TestClient(withNestParsers).post('/notes', {
      data: '{"text":',
      headers: { 'content-type': 'application/json' },
    });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toEqual({ error: expect.any(String) });
  });
});
