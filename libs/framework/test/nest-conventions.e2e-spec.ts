/**
 * Nest's own conventions on toolkit routes: toolkit answers through Nest's reply path, so
 * `@HttpCode`, `@Redirect`, `@Header`, guards, pipes, interceptors and exception filters behave
 * as on any Nest route, and a plain Nest route in a toolkit app is left exactly as Nest answers.
 */
import { afterAll, describe, expect, it } from '@jest/globals';
import {
  BadRequestException,
  Catch,
  Controller,
  Header,
  HttpCode,
  Injectable,
  Module,
  Param,
  ParseIntPipe,
  Post,
  Query,
  Redirect,
  UseFilters,
  UseGuards,
  UseInterceptors,
  type ArgumentsHost,
  type CallHandler,
  type CanActivate,
  type ExceptionFilter,
  type ExecutionContext,
  type NestInterceptor,
} from '@nestjs/common';
import { map, type Observable } from 'rxjs';
import { GUARDS_METADATA, ROUTE_ARGS_METADATA } from '@nestjs/common/constants.js';
import { APP_FILTER } from '@nestjs/core';
import { App, Arg, Route } from 'toolkit';
import { RouteEntryGuard } from '../src/routing/route-entry.guard.js';
import { TestClient, createTestingApp } from 'toolkit/testing';
import { sendJson, testPlatform } from '../../../test/support/platform.js';

class TeapotError extends Error {}

@Catch(TeapotError)
class TeapotFilter implements ExceptionFilter {
  catch(_error: TeapotError, host: ArgumentsHost): void {
    sendJson(host.switchToHttp().getResponse(), 418, { teapot: true });
  }
}

@Catch(BadRequestException)
class ClassLevelFilter implements ExceptionFilter {
  catch(error: BadRequestException, host: ArgumentsHost): void {
    sendJson(host.switchToHttp().getResponse(), 400, { caughtBy: 'class', message: error.message });
  }
}

class DenyGuard implements CanActivate {
  canActivate(): boolean {
    return false;
  }
}

@Injectable()
class WrapInterceptor implements NestInterceptor {
  intercept(_context: ExecutionContext, next: CallHandler): Observable<unknown> {
    return next.handle().pipe(map((value) => ({ wrapped: value })));
  }
}

@Controller()
class ConventionsController {
  @Route('/accepted', { methods: ['POST'] })
  @HttpCode(202)
  accepted(@Arg('job') job: string) {
    return { job };
  }

  @HttpCode(202)
  @Route('/accepted-above', { methods: ['POST'] })
  acceptedAbove() {
    return { ok: true };
  }

  @Route('/old-place')
  @Redirect('/new-place', 301)
  oldPlace() {
    return undefined;
  }

  @Route('/labelled')
  @Header('X-Label', 'toolkit')
  @Header('Cache-Control', 'max-age=60')
  labelled() {
    return 'labelled';
  }

  @Route('/guarded')
  @UseGuards(DenyGuard)
  guarded() {
    return { secret: true };
  }

  // No toolkit parameter: the route is entered by toolkit's guard, not a hidden parameter.
  @Route('/either', { methods: ['GET', 'PUT'] })
  either() {
    return 'either';
  }

  @Route('/either-guarded', { methods: ['GET', 'PUT'] })
  @UseGuards(DenyGuard)
  eitherGuarded() {
    return 'never';
  }

  @Route('/items/:id')
  item(
    @Param('id', ParseIntPipe) id: number,
    @Arg('verbose', { default: false }) verbose: boolean,
  ) {
    return { id, type: typeof id, verbose };
  }

  @Route('/paged')
  paged(@Query('page') page: number, @Query('tag') tag: string) {
    return { page, type: typeof page, tag };
  }

  @Route('/wrapped')
  @UseInterceptors(WrapInterceptor)
  wrapped() {
    return { inner: 1 };
  }

  @Route('/tuple-wrapped')
  @UseInterceptors(WrapInterceptor)
  tupleWrapped() {
    return [{ inner: 1 }, 418];
  }

  @Route('/teapot')
  @UseFilters(TeapotFilter)
  teapot(): never {
    throw new TeapotError('short and stout');
  }

  @Route('/teapot-unrelated')
  @UseFilters(TeapotFilter)
  teapotUnrelated(): never {
    throw new BadRequestException('not a teapot');
  }

  @Post('/plain-tuple')
  plainTuple() {
    return ['x', 418];
  }

  @Post('/plain-text')
  plainText() {
    return 'nest sends this as html';
  }
}

@Controller('filtered')
@UseFilters(ClassLevelFilter)
class ClassFilteredController {
  @Route('/bad')
  bad(): never {
    throw new BadRequestException('from the handler');
  }
}

describe('Nest conventions on toolkit routes', () => {
  const app = new App({
    controllers: [ConventionsController, ClassFilteredController],
    logger: false,
    cwd: '/nonexistent',
  });
  const client = new TestClient(app);
  afterAll(async () => {
    await app.close();
  });

  it('answers with @HttpCode whichever side of @Route it is written', async () => {
    const below = await client.post('/accepted', { json: { job: 'build' } });
    expect(below.statusCode).toBe(202);
    expect(below.json()).toEqual({ job: 'build' });
    expect((await client.post('/accepted-above')).statusCode).toBe(202);
  });

  it('still checks parameters on an @HttpCode route (422, not 202)', async () => {
    const res = await client.post('/accepted', { json: {} });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ details: [{ param: 'job', problem: 'is required' }] });
  });

  it('redirects with @Redirect', async () => {
    const res = await client.get('/old-place');
    expect(res.statusCode).toBe(301);
    expect(res.headers.location).toBe('/new-place');
  });

  it('sets @Header values and keeps toolkit text/plain for a string', async () => {
    const res = await client.get('/labelled');
    expect(res.headers['x-label']).toBe('toolkit');
    expect(res.headers['cache-control']).toBe('max-age=60');
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    expect(res.text()).toBe('labelled');
  });

  it("answers a guard's refusal with toolkit's error body", async () => {
    const res = await client.get('/guarded');
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ error: 'Forbidden resource' });
  });

  it('checks the method of a route without toolkit parameters, after the guards, with no hidden parameter', async () => {
    const got = await client.get('/either');
    expect(got.statusCode).toBe(200);
    expect(got.text()).toBe('either');
    const wrong = await client.delete('/either');
    expect(wrong.statusCode).toBe(405);
    expect(wrong.headers.allow).toBe('GET, PUT');
    // The application's guard refuses first: its 403, not toolkit's 405.
    expect((await client.delete('/either-guarded')).statusCode).toBe(403);
    for (const method of ['either', 'eitherGuarded']) {
      expect(
        Reflect.getMetadata(ROUTE_ARGS_METADATA, ConventionsController, method),
      ).toBeUndefined();
      expect(
        Reflect.getMetadata(
          GUARDS_METADATA,
          (ConventionsController.prototype as unknown as Record<string, object>)[method],
        ),
      ).toContain(RouteEntryGuard);
    }
  });

  it('runs Nest pipes on Nest parameters beside @Arg ones', async () => {
    const ok = await client.get('/items/42', { params: { verbose: 'true' } });
    expect(ok.json()).toEqual({ id: 42, type: 'number', verbose: true });
    const bad = await client.get('/items/forty-two');
    expect(bad.statusCode).toBe(400);
    expect(bad.json<{ error: string }>().error).toMatch(/numeric string is expected/);
  });

  it('converts number-typed Nest query parameters, as a global ValidationPipe would', async () => {
    const res = await client.get('/paged', { params: { page: '2', tag: '7' } });
    expect(res.json()).toEqual({ page: 2, type: 'number', tag: '7' });
  });

  it('lets a method interceptor map the result before the return rules apply', async () => {
    const res = await client.get('/wrapped');
    expect(res.json()).toEqual({ wrapped: { inner: 1 } });
    // The wrapped tuple is no longer a tuple: it is sent as the JSON it became.
    const tuple = await client.get('/tuple-wrapped');
    expect(tuple.statusCode).toBe(200);
    expect(tuple.json()).toEqual({ wrapped: [{ inner: 1 }, 418] });
  });

  it("gives a user's method filter its exceptions and toolkit the others", async () => {
    const caught = await client.get('/teapot');
    expect(caught.statusCode).toBe(418);
    expect(caught.json()).toEqual({ teapot: true });
    const other = await client.get('/teapot-unrelated');
    expect(other.statusCode).toBe(400);
    expect(other.json()).toEqual({ error: 'not a teapot' });
  });

  it("gives a user's controller filter the exceptions of toolkit routes", async () => {
    const res = await client.get('/filtered/bad');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ caughtBy: 'class', message: 'from the handler' });
  });

  it('leaves a plain Nest route exactly as Nest answers it', async () => {
    const tuple = await client.post('/plain-tuple');
    expect(tuple.statusCode).toBe(201);
    expect(tuple.json()).toEqual(['x', 418]);
    const text = await client.post('/plain-text');
    expect(text.statusCode).toBe(201);
    // Nest's own answer for a string: Express's `send` says HTML, Fastify's plain text.
    const type = testPlatform() === 'fastify' ? /^text\/plain/ : /^text\/html/;
    expect(text.headers['content-type']).toMatch(type);
  });
});

describe("a user's global filters", () => {
  @Controller()
  class TeapotController {
    @Route('/teapot')
    teapot(): never {
      throw new TeapotError('short and stout');
    }

    @Route('/other')
    other(): never {
      throw new BadRequestException('not a teapot');
    }
  }

  it('win over toolkit for their exceptions when registered as APP_FILTER', async () => {
    const app = new App({
      controllers: [TeapotController],
      providers: [{ provide: APP_FILTER, useClass: TeapotFilter }],
      logger: false,
      cwd: '/nonexistent',
    });
    const client = new TestClient(app);
    const caught = await client.get('/teapot');
    expect(caught.statusCode).toBe(418);
    expect(caught.json()).toEqual({ teapot: true });
    expect((await client.get('/other')).json()).toEqual({ error: 'not a teapot' });
    await app.close();
  });

  it('win over toolkit as an APP_FILTER of a module in App imports', async () => {
    @Module({ providers: [{ provide: APP_FILTER, useClass: TeapotFilter }] })
    class TeapotFilters {}
    const app = new App({
      controllers: [TeapotController],
      imports: [TeapotFilters],
      logger: false,
      cwd: '/nonexistent',
    });
    const client = new TestClient(app);
    expect((await client.get('/teapot')).json()).toEqual({ teapot: true });
    expect((await client.get('/other')).json()).toEqual({ error: 'not a teapot' });
    expect((await client.get('/nowhere')).json()).toEqual({ error: 'Not Found' });
    await app.close();
  });

  it('win over toolkit as an APP_FILTER in createTestingApp providers', async () => {
    const { client, close } = await createTestingApp({
      controllers: [TeapotController],
      providers: [{ provide: APP_FILTER, useClass: TeapotFilter }],
    });
    const caught = await client.get('/teapot');
    expect(caught.statusCode).toBe(418);
    expect(caught.json()).toEqual({ teapot: true });
    expect((await client.get('/other')).json()).toEqual({ error: 'not a teapot' });
    await close();
  });

  it('take everything toolkit would answer when theirs catches everything', async () => {
    @Catch()
    class CatchAll implements ExceptionFilter {
      catch(_error: unknown, host: ArgumentsHost): void {
        sendJson(host.switchToHttp().getResponse(), 418, { caughtBy: 'catch-all' });
      }
    }
    const { client, close } = await createTestingApp({
      controllers: [TeapotController],
      providers: [{ provide: APP_FILTER, useClass: CatchAll }],
    });
    expect((await client.get('/other')).json()).toEqual({ caughtBy: 'catch-all' });
    expect((await client.get('/nowhere')).json()).toEqual({ caughtBy: 'catch-all' });
    await close();
  });
});
