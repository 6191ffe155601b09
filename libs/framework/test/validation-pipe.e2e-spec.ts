/**
 * `validate: true` (what `App` uses) checks the DTO- and schema-typed `@Body`/`@Query`/`@Param`
 * of every route and converts `number`/`boolean` query and path values, through Nest's public
 * seam for it, a global pipe: the parameters Nest recorded for the application's controllers
 * are the same after the start as before it, and every other parameter is handed over as it came.
 */
import { afterAll, describe, expect, it, jest } from '@jest/globals';
import {
  Body,
  Controller,
  Get,
  HttpCode,
  Module,
  Param,
  Post,
  Query,
  Req,
  ValidationPipe,
  type DynamicModule,
  type INestApplication,
} from '@nestjs/common';
import { ROUTE_ARGS_METADATA } from '@nestjs/common/constants.js';
import { APP_PIPE, NestFactory } from '@nestjs/core';
import { IsInt, IsOptional, IsString, Min } from 'class-validator';
import { App, Arg, Route, ToolkitModule } from 'toolkit';
import { TestClient } from 'toolkit/testing';
import { z } from 'zod';
import { testAdapter } from '../../../test/support/platform.js';
import { ToolkitValidationPipe } from '../src/http/toolkit-validation.pipe.js';

class NoteDto {
  @IsString() text!: string;
  @IsOptional() @IsInt() @Min(1) stars?: number;
}

const Message = z.object({ message: z.string().min(1), times: z.number().int().default(1) });
type Message = z.infer<typeof Message>;

@Controller('v')
class ValidatedController {
  @Post('dto')
  @HttpCode(200)
  dto(@Body() note: NoteDto) {
    return { text: note.text, isDto: note instanceof NoteDto };
  }

  @Post('schema')
  @HttpCode(200)
  schema(@Body({ schema: Message }) body: Message) {
    return body;
  }

  @Get('convert/:id')
  convert(
    @Param('id') id: number,
    @Query('page') page: number,
    @Query('draft') draft: boolean,
    @Query('tag') tag: string,
  ) {
    return { id, page, draft, tag, types: [id, page, draft, tag].map((v) => typeof v) };
  }

  @Post('text')
  @HttpCode(200)
  text(@Body('text') text: string, @Req() req: object) {
    return { text, type: typeof text, hasReq: typeof req === 'object' };
  }

  @Route('/arg', { methods: ['POST'] })
  arg(@Arg('count', { type: 'integer' }) count: number) {
    return { count };
  }
}

type ParamRecord = Record<string, { index: number; data?: unknown; pipes?: unknown[] }>;

/** A copy of what Nest recorded for each parameter of `controller`, pipes arrays included. */
function recordedParams(controller: object): Record<string, ParamRecord> {
  const methods = Object.getOwnPropertyNames((controller as { prototype: object }).prototype);
  const copy: Record<string, ParamRecord> = {};
  for (const method of methods) {
    const args = Reflect.getMetadata(ROUTE_ARGS_METADATA, controller, method) as
      ParamRecord | undefined;
    if (!args) continue;
    copy[method] = Object.fromEntries(
      Object.entries(args).map(([key, param]) => [
        key,
        { ...param, pipes: [...(param.pipes ?? [])] },
      ]),
    );
  }
  return copy;
}

type Details = { details: { param: string }[] };

describe('validate: true on an App', () => {
  const before = recordedParams(ValidatedController);
  const app = new App({ controllers: [ValidatedController], logger: false, cwd: '/nonexistent' });
  const client = new TestClient(app);
  afterAll(async () => {
    await app.close();
  });

  it('validates a DTO-typed @Body into a 422 naming each field, and hands over the DTO', async () => {
    const bad = await client.post('/v/dto', { json: { text: 3, stars: 0 } });
    expect(bad.statusCode).toBe(422);
    const params = bad.json<Details>().details.map((d) => d.param);
    expect(new Set(params)).toEqual(new Set(['text', 'stars']));
    const ok = await client.post('/v/dto', { json: { text: 'hi' } });
    expect(ok.json()).toEqual({ text: 'hi', isDto: true });
  });

  it('validates and converts @Body({ schema })', async () => {
    const bad = await client.post('/v/schema', { json: { message: '', times: 1.5 } });
    expect(bad.statusCode).toBe(422);
    expect(bad.json<Details>().details.map((d) => d.param)).toEqual(['message', 'times']);
    expect((await client.post('/v/schema', { json: { message: 'x' } })).json()).toEqual({
      message: 'x',
      times: 1,
    });
  });

  it('converts number and boolean query and path values, and leaves string ones', async () => {
    const res = await client.get('/v/convert/7', {
      params: { page: '2', draft: 'true', tag: '9' },
    });
    expect(res.json()).toEqual({
      id: 7,
      page: 2,
      draft: true,
      tag: '9',
      types: ['number', 'number', 'boolean', 'string'],
    });
  });

  it('hands over a string-typed body value and @Req untouched', async () => {
    const res = await client.post('/v/text', { json: { text: 5 } });
    expect(res.json()).toEqual({ text: 5, type: 'number', hasReq: true });
  });

  it("leaves @Arg to toolkit's own checks", async () => {
    const bad = await client.post('/v/arg', { json: { count: 1.5 } });
    expect(bad.statusCode).toBe(422);
    expect(bad.json<Details>().details.map((d) => d.param)).toEqual(['count']);
    expect((await client.post('/v/arg', { json: { count: 3 } })).json()).toEqual({ count: 3 });
  });

  it("writes nothing into the parameters Nest recorded for the application's controllers", async () => {
    await app.init();
    expect((await client.post('/v/dto', { json: {} })).statusCode).toBe(422); // validation is on
    const after = recordedParams(ValidatedController);
    expect(after).toEqual(before);
    for (const [method, params] of Object.entries(after)) {
      for (const [key, param] of Object.entries(params)) {
        expect(param.pipes).toHaveLength(before[method][key].pipes?.length ?? 0);
      }
    }
  });
});

/** A host application of `ValidatedController` importing `toolkit`, started. */
async function host(toolkit: DynamicModule): Promise<INestApplication> {
  @Module({ imports: [toolkit], controllers: [ValidatedController] })
  class HostModule {}
  const nest = await NestFactory.create(HostModule, testAdapter(), { logger: false });
  await nest.init();
  return nest;
}

/** The status of an invalid DTO body on `nest`, which is closed afterwards. */
async function invalidDtoStatus(nest: INestApplication): Promise<number> {
  try {
    return (await new TestClient(nest).post('/v/dto', { json: { text: 3 } })).statusCode;
  } finally {
    await nest.close();
  }
}

describe('validate: true on an App whose parameters need no validation', () => {
  @Controller('plain')
  class PlainController {
    @Post()
    echo(@Body('message') message: string) {
      return { message };
    }

    @Route('/arg', { methods: ['POST'] })
    arg(@Arg('message') message: string) {
      return { message };
    }
  }

  it('runs no validation pipe at all: no parameter pays for one', async () => {
    const transform = jest.spyOn(ToolkitValidationPipe.prototype, 'transform');
    const app = new App({ controllers: [PlainController] });
    try {
      const client = new TestClient(await app.init());
      expect((await client.post('/plain', { json: { message: 'hi' } })).json()).toEqual({
        message: 'hi',
      });
      expect((await client.post('/plain/arg', { json: { message: 'hi' } })).json()).toEqual({
        message: 'hi',
      });
      expect((await client.post('/plain/arg', { json: {} })).statusCode).toBe(422);
      expect(transform).not.toHaveBeenCalled();
    } finally {
      transform.mockRestore();
      await app.close();
    }
  });
});

describe('validate in a host application', () => {
  it('is off by default: parameters reach the handler as they came', async () => {
    const nest = await host(ToolkitModule.forRoot());
    try {
      const client = new TestClient(nest);
      const dto = await client.post('/v/dto', { json: { text: 3 } });
      expect(dto.json()).toEqual({ text: 3, isDto: false });
      const convert = await client.get('/v/convert/7', { params: { page: '2' } });
      expect(convert.json()).toMatchObject({ id: '7', page: '2' });
    } finally {
      await nest.close();
    }
  });

  it('runs no pipe at all when off, in forRoot and in forRootAsync', async () => {
    const transform = jest.spyOn(ToolkitValidationPipe.prototype, 'transform');
    try {
      for (const toolkit of [
        ToolkitModule.forRoot(),
        ToolkitModule.forRootAsync({ useFactory: () => ({ validate: false }) }),
      ]) {
        expect(await invalidDtoStatus(await host(toolkit))).toBe(200);
      }
      expect(transform).not.toHaveBeenCalled();
      expect(await invalidDtoStatus(await host(ToolkitModule.forRoot({ validate: true })))).toBe(
        422,
      );
      expect(transform).toHaveBeenCalled();
    } finally {
      transform.mockRestore();
    }
  });

  it('is read from the options of forRoot and of a forRootAsync factory', async () => {
    expect(await invalidDtoStatus(await host(ToolkitModule.forRoot({ validate: true })))).toBe(422);
    const on = ToolkitModule.forRootAsync({ useFactory: () => ({ validate: true }) });
    expect(await invalidDtoStatus(await host(on))).toBe(422);
    const off = ToolkitModule.forRootAsync({ useFactory: () => ({ validate: false }) });
    expect(await invalidDtoStatus(await host(off))).toBe(200);
    expect(await invalidDtoStatus(await host(ToolkitModule.forRootAsync()))).toBe(200);
  });
});

describe("a user's own global ValidationPipe beside toolkit's", () => {
  const app = new App({
    controllers: [ValidatedController],
    providers: [
      {
        provide: APP_PIPE,
        useValue: new ValidationPipe({ whitelist: true, forbidNonWhitelisted: true }),
      },
    ],
    logger: false,
    cwd: '/nonexistent',
  });
  const client = new TestClient(app);
  afterAll(async () => {
    await app.close();
  });

  it('still applies its own rules', async () => {
    const extra = await client.post('/v/dto', { json: { text: 'hi', admin: true } });
    expect(extra.statusCode).toBe(400);
    expect(extra.json()).toMatchObject({
      details: [{ problem: 'property admin should not exist' }],
    });
  });

  it('runs first, as before: its refusal wins', async () => {
    const bad = await client.post('/v/dto', { json: { text: 3 } });
    expect(bad.statusCode).toBe(400); // not toolkit's 422
    expect(bad.json()).toMatchObject({ details: [{ problem: 'text must be a string' }] });
  });

  it("lets toolkit's pipe hand the handler the DTO", async () => {
    const ok = await client.post('/v/dto', { json: { text: 'hi' } });
    expect(ok.json()).toEqual({ text: 'hi', isDto: true });
  });
});

describe("a user's ValidationPipe added with app.useGlobalPipes() beside toolkit's", () => {
  it("runs after toolkit's, which Nest applied first, and still applies its own rules", async () => {
    @Module({
      imports: [ToolkitModule.forRoot({ validate: true })],
      controllers: [ValidatedController],
    })
    class HostModule {}
    const nest = await NestFactory.create(HostModule, testAdapter(), { logger: false });
    nest.useGlobalPipes(new ValidationPipe({ whitelist: true, forbidNonWhitelisted: true }));
    await nest.init();
    try {
      const client = new TestClient(nest);
      const bad = await client.post('/v/dto', { json: { text: 3 } });
      expect(bad.statusCode).toBe(422);
      expect(bad.json()).toMatchObject({ details: [{ param: 'text' }] });
      const extra = await client.post('/v/dto', { json: { text: 'hi', admin: true } });
      expect(extra.statusCode).toBe(400);
      const ok = await client.post('/v/dto', { json: { text: 'hi' } });
      expect(ok.json()).toEqual({ text: 'hi', isDto: false }); // its own output, a plain object
    } finally {
      await nest.close();
    }
  });
});
