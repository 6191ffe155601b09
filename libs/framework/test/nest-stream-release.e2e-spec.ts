/**
 * Why `@Stream()` still gives its method a hidden `@Res()` (ARCHITECTURE.md, "Still outside the
 * public seams"): Nest's router ends the async iterable a handler returned once the response it
 * sends is over, unless the route handles its response itself. A resumable stream's producer must
 * outlive its first client, so a stream route must handle its response. This test holds plain
 * Nest (no toolkit) to that: when it fails, Nest no longer does it, and the hidden `@Res()` can go.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  Controller,
  Get,
  Injectable,
  Module,
  Res,
  UseInterceptors,
  type CallHandler,
  type ExecutionContext,
  type INestApplication,
  type NestInterceptor,
} from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { ServerResponse } from 'node:http';
import { map, type Observable } from 'rxjs';
import { testAdapter } from '../../../test/support/platform.js';

/** How each handler's producer ended: `'ran to the end'` or `'ended early'`. */
const outcomes = new Map<string, Promise<string>>();

function producer(tag: string): AsyncGenerator<number> {
  let settle!: (outcome: string) => void;
  outcomes.set(tag, new Promise((resolve) => (settle = resolve)));
  return (async function* () {
    let done = false;
    try {
      for (let i = 0; i < 5; i += 1) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        yield i;
      }
      done = true;
    } finally {
      settle(done ? 'ran to the end' : 'ended early');
    }
  })();
}

/** Answers at once and keeps reading the handler's generator, as a resumable producer does. */
@Injectable()
class Background implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const handled = context.getHandler().name === 'handled';
    const res = context.switchToHttp().getResponse<{ raw?: unknown }>();
    return next.handle().pipe(
      map((generator: AsyncGenerator<number>) => {
        void (async () => {
          for await (const _ of generator) {
            // read to the end, after the answer
          }
        })();
        if (handled) {
          const raw = (res.raw ?? res) as ServerResponse;
          raw.end('ok');
        }
        return 'ok';
      }),
    );
  }
}

@Controller()
class ProducersController {
  @Get('plain')
  @UseInterceptors(Background)
  plain(): AsyncGenerator<number> {
    return producer('plain');
  }

  @Get('handled')
  @UseInterceptors(Background)
  handled(@Res() _res: unknown): AsyncGenerator<number> {
    return producer('handled');
  }
}

describe("Nest's router and the async iterable a handler returns", () => {
  let nest: INestApplication;
  let url: string;
  beforeAll(async () => {
    @Module({ controllers: [ProducersController], providers: [Background] })
    class ProducersModule {}
    nest = await NestFactory.create(ProducersModule, testAdapter(), { logger: false });
    await nest.listen(0, '127.0.0.1');
    url = await nest.getUrl();
  });
  afterAll(async () => {
    await nest.close();
  });

  it('is ended once the answer is over when Nest sends the answer', async () => {
    expect(await (await fetch(`${url}/plain`)).text()).toBe('ok');
    expect(await outcomes.get('plain')).toBe('ended early');
  });

  it('is left alone when the route handles its response (@Res())', async () => {
    expect(await (await fetch(`${url}/handled`)).text()).toBe('ok');
    expect(await outcomes.get('handled')).toBe('ran to the end');
  });
});
