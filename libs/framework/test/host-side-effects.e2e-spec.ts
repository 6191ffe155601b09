/**
 * Importing ToolkitModule into a host application adds no route the host did not ask for:
 * `/openapi.json` is opt-in (`openapi: true`) and `/health` comes only with `HealthController`.
 * Without them, those paths answer exactly what the same app without toolkit answers.
 */
import { describe, expect, it } from '@jest/globals';
import {
  Body,
  Controller,
  Get,
  Module,
  Post,
  type DynamicModule,
  type INestApplication,
  type Type,
} from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { IsString } from 'class-validator';
import { Arg, Route, Stream, ToolkitModule } from 'toolkit';
import { TestClient, type TestResponse } from 'toolkit/testing';
import { testAdapter } from '../../../test/support/platform.js';

class NoteDto {
  @IsString() text!: string;
}

@Controller('own')
class OwnController {
  @Get()
  list() {
    return [{ id: 1 }];
  }

  @Post('notes')
  add(@Body() note: NoteDto) {
    return { saved: note.text };
  }
}

@Controller('ai')
class AiController {
  @Route('/echo', { methods: ['POST'] })
  echo(@Arg('text') text: string) {
    return { text };
  }

  @Route('/ping')
  ping() {
    return { pong: true };
  }

  @Route('/words', { methods: ['POST'] })
  @Stream()
  async *words(@Arg('text') text: string) {
    yield* text.split(' ');
  }
}

type Operation = { responses: Record<string, unknown> };
type OpenApiDocument = { paths: Record<string, Record<string, Operation>> };

async function started(imports: (Type | DynamicModule)[]): Promise<INestApplication> {
  @Module({ imports, controllers: [OwnController, AiController] })
  class HostModule {}
  const app = await NestFactory.create(HostModule, testAdapter(), { logger: false });
  await app.init();
  return app;
}

/** What a client sees of an answer, byte for byte (headers that vary per response aside). */
function seen(res: TestResponse): unknown {
  const { date: _date, ...headers } = res.headers;
  return { status: res.statusCode, headers, body: res.text() };
}

async function answers(imports: (Type | DynamicModule)[], paths: string[]): Promise<unknown[]> {
  const app = await started(imports);
  try {
    const client = new TestClient(app);
    const seenAll: unknown[] = [];
    for (const path of paths) seenAll.push(seen(await client.get(path)));
    return seenAll;
  } finally {
    await app.close();
  }
}

async function openApiOf(imports: (Type | DynamicModule)[]): Promise<OpenApiDocument> {
  const app = await started(imports);
  try {
    const res = await new TestClient(app).get('/openapi.json');
    expect(res.statusCode).toBe(200);
    return res.json<OpenApiDocument>();
  } finally {
    await app.close();
  }
}

describe('ToolkitModule in a host application', () => {
  const paths = ['/openapi.json', '/health', '/health/ready'];

  it("adds no route: /openapi.json and /health answer Nest's own 404, byte for byte", async () => {
    const without = await answers([], paths);
    expect(without).toHaveLength(3);
    expect(without[0]).toMatchObject({ status: 404 });
    expect(JSON.parse((without[0] as { body: string }).body)).toEqual({
      message: 'Cannot GET /openapi.json',
      error: 'Not Found',
      statusCode: 404,
    });
    expect(await answers([ToolkitModule.forRoot()], paths)).toEqual(without);
    expect(await answers([ToolkitModule.forRootAsync()], paths)).toEqual(without);
    expect(await answers([ToolkitModule.forRoot({ openapi: false })], paths)).toEqual(without);
  });

  it('serves /openapi.json with openapi: true, through forRoot and forRootAsync', async () => {
    for (const module of [
      ToolkitModule.forRoot({ openapi: true }),
      ToolkitModule.forRootAsync({ openapi: true, useFactory: () => ({ title: 'host' }) }),
    ]) {
      const doc = await openApiOf([module]);
      expect(Object.keys(doc.paths).sort()).toEqual([
        '/ai/echo',
        '/ai/ping',
        '/ai/words',
        '/own',
        '/own/notes',
      ]);
    }
  });

  it('marks 422 only on the routes whose parameters toolkit checks', async () => {
    const statuses = (doc: OpenApiDocument, path: string, method: string): string[] =>
      Object.keys(doc.paths[path][method].responses).sort();

    const plain = await openApiOf([ToolkitModule.forRoot({ openapi: true })]);
    expect(statuses(plain, '/own', 'get')).toEqual(['200']);
    expect(statuses(plain, '/own/notes', 'post')).toEqual(['200']);
    expect(statuses(plain, '/ai/ping', 'get')).toEqual(['200']);
    expect(statuses(plain, '/ai/echo', 'post')).toEqual(['200', '422']);
    expect(statuses(plain, '/ai/words', 'post')).toEqual(['200', '422']);
    expect(plain.paths['/ai/words'].post.responses['200']).toMatchObject({
      content: { 'text/event-stream': {} },
    });

    const validated = await openApiOf([ToolkitModule.forRoot({ openapi: true, validate: true })]);
    expect(statuses(validated, '/own/notes', 'post')).toEqual(['200', '422']);
    expect(statuses(validated, '/own', 'get')).toEqual(['200']);
  });
});
