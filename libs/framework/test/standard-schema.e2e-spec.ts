/**
 * Standard Schema (zod here; valibot and arktype speak the same interface) on toolkit routes:
 * Nest 12's `@Body({ schema })` / `@Query(name, { schema })`, `@Arg(name, { schema })`, and
 * schemas inside `app.route` `params`. Every failure is toolkit's 422 naming the parameter.
 */
import { afterAll, describe, expect, it } from '@jest/globals';
import { Body, Controller, HttpCode, Post, Query } from '@nestjs/common';
import { App, Arg, Route } from 'toolkit';
import { TestClient } from 'toolkit/testing';
import { z } from 'zod';

const Message = z.object({ message: z.string().min(1), times: z.number().int().default(1) });
type Message = z.infer<typeof Message>;

const takenNames = new Set(['admin']);
const FreeName = z.string().refine(
  async (name) => {
    await Promise.resolve();
    return !takenNames.has(name);
  },
  { message: 'is taken' },
);

@Controller()
class SchemaController {
  @Route('/echo', { methods: ['POST'] })
  echo(@Body({ schema: Message }) body: Message) {
    return { echo: body.message.repeat(body.times) };
  }

  @Route('/page')
  page(@Query('page', { schema: z.coerce.number().int().min(1) }) page: number) {
    return { page, type: typeof page };
  }

  @Route('/subscribe', { methods: ['POST'] })
  subscribe(
    @Arg('email', { schema: z.email() }) email: string,
    @Arg('plan', { oneOf: ['free', 'pro'] }) plan: string,
  ) {
    return { email, plan };
  }

  @Route('/register', { methods: ['POST'] })
  register(@Arg('name', { schema: FreeName }) name: string) {
    return { name };
  }

  @Post('/plain')
  @HttpCode(200)
  plain(@Body({ schema: Message }) body: Message) {
    return body;
  }
}

describe('Standard Schema validation on toolkit routes', () => {
  const app = new App({ controllers: [SchemaController], logger: false, cwd: '/nonexistent' });
  app.route(
    '/profile',
    {
      methods: ['POST'],
      params: {
        user: z.object({ name: z.string(), age: z.number().int().nonnegative() }),
        tags: { schema: z.array(z.string()).max(2), required: false },
        note: 'string',
      },
    },
    ({ user, tags, note }) => ({ greeting: `${user.name} (${user.age})`, tags: tags ?? [], note }),
  );
  const client = new TestClient(app);
  afterAll(async () => {
    await app.close();
  });

  it('validates and converts @Body({ schema }), naming the field on failure', async () => {
    const ok = await client.post('/echo', { json: { message: 'ab' } });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ echo: 'ab' }); // `times` defaulted by the schema
    const bad = await client.post('/echo', { json: { message: '', times: 1.5 } });
    expect(bad.statusCode).toBe(422);
    expect(bad.json<{ details: { param: string }[] }>().details.map((d) => d.param)).toEqual([
      'message',
      'times',
    ]);
  });

  it('validates @Query(name, { schema }) and hands over the converted value', async () => {
    expect((await client.get('/page', { params: { page: '3' } })).json()).toEqual({
      page: 3,
      type: 'number',
    });
    const bad = await client.get('/page', { params: { page: '0' } });
    expect(bad.statusCode).toBe(422);
    expect(bad.json()).toMatchObject({ details: [{ param: 'page' }] });
  });

  it('reports schema and built-in problems of @Arg together, in declaration order', async () => {
    const bad = await client.post('/subscribe', { json: { email: 'not-an-email', plan: 'gold' } });
    expect(bad.statusCode).toBe(422);
    const details = bad.json<{ details: { param: string; problem: string }[] }>().details;
    expect(details.map((d) => d.param)).toEqual(['email', 'plan']);
    expect(details[1].problem).toBe('must be one of "free", "pro" (got string "gold")');
    const missing = await client.post('/subscribe', { json: { plan: 'pro' } });
    expect(missing.json()).toMatchObject({ details: [{ param: 'email', problem: 'is required' }] });
    const ok = await client.post('/subscribe', { json: { email: 'a@b.co', plan: 'pro' } });
    expect(ok.json()).toEqual({ email: 'a@b.co', plan: 'pro' });
  });

  it('awaits an asynchronous schema', async () => {
    const taken = await client.post('/register', { json: { name: 'admin' } });
    expect(taken.statusCode).toBe(422);
    expect(taken.json()).toMatchObject({ details: [{ param: 'name', problem: 'is taken' }] });
    expect((await client.post('/register', { json: { name: 'ada' } })).json()).toEqual({
      name: 'ada',
    });
  });

  it('takes schemas in app.route params, with nested paths in the 422', async () => {
    const ok = await client.post('/profile', {
      json: { user: { name: 'Ada', age: 36 }, note: 'hi' },
    });
    expect(ok.json()).toEqual({ greeting: 'Ada (36)', tags: [], note: 'hi' });
    const bad = await client.post('/profile', {
      json: { user: { name: 'Ada', age: -1 }, tags: ['a', 'b', 'c'], note: 5 },
    });
    expect(bad.statusCode).toBe(422);
    const params = bad.json<{ details: { param: string }[] }>().details.map((d) => d.param);
    expect(params).toEqual(['user.age', 'tags', 'note']);
  });

  it('validates @Body({ schema }) on a plain Nest route of the app too', async () => {
    const bad = await client.post('/plain', { json: { message: '' } });
    expect(bad.statusCode).toBe(422);
    expect(bad.json()).toMatchObject({ details: [{ param: 'message' }] });
    expect((await client.post('/plain', { json: { message: 'x' } })).json()).toEqual({
      message: 'x',
      times: 1,
    });
  });
});
