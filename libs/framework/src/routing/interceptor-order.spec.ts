import { describe, expect, it } from '@jest/globals';
import {
  Injectable,
  UseInterceptors,
  type CallHandler,
  type ExecutionContext,
  type NestInterceptor,
} from '@nestjs/common';
import { INTERCEPTORS_METADATA } from '@nestjs/common/constants.js';
import type { Observable } from 'rxjs';
import { Cache } from '../cache/cache.decorator.js';
import { CacheInterceptor } from '../cache/cache.interceptor.js';
import { StreamInterceptor } from '../sse/stream.interceptor.js';
import { Route } from './route.decorator.js';
import { Stream } from './stream.decorator.js';

@Injectable()
class Tag implements NestInterceptor {
  intercept(_context: ExecutionContext, next: CallHandler): Observable<unknown> {
    return next.handle();
  }
}

/** The method's interceptors, outermost first, as Nest will run them. */
function interceptorsOf(controller: { prototype: object }, method: string): unknown[] {
  const handler = (controller.prototype as Record<string, object>)[method];
  return Reflect.getMetadata(INTERCEPTORS_METADATA, handler) as unknown[];
}

describe("toolkit's interceptors and the method's own", () => {
  it('wrap the own ones when written below them, in the order Nest keeps (never reordered)', () => {
    class Written {
      @Route('/a')
      @UseInterceptors(Tag)
      @Stream()
      streamed() {
        return undefined;
      }

      @Route('/b')
      @UseInterceptors(Tag)
      @Cache()
      cached() {
        return undefined;
      }

      @Route('/c')
      @UseInterceptors(Tag)
      @Cache()
      @Stream()
      both() {
        return undefined;
      }

      @Route('/d')
      @Stream()
      @Cache()
      bothOtherWay() {
        return undefined;
      }
    }
    expect(interceptorsOf(Written, 'streamed')).toEqual([StreamInterceptor, Tag]);
    expect(interceptorsOf(Written, 'cached')).toEqual([CacheInterceptor, Tag]);
    expect(interceptorsOf(Written, 'both')).toEqual([StreamInterceptor, CacheInterceptor, Tag]);
    expect(interceptorsOf(Written, 'bothOtherWay')).toEqual([CacheInterceptor, StreamInterceptor]);
  });

  it('refuse, when the class is defined, to be written above an own interceptor', () => {
    const streamAbove = () => {
      class StreamAbove {
        @Route('/a')
        @Stream()
        @UseInterceptors(Tag)
        chat() {
          return undefined;
        }
      }
      return StreamAbove;
    };
    expect(streamAbove).toThrow(TypeError);
    expect(streamAbove).toThrow(
      /^@Stream\(\) on chat\(\) is written above @UseInterceptors\(Tag\): .* Write @Stream\(\) below @UseInterceptors\(\), nearest the method\.$/,
    );

    const cacheAbove = () => {
      class CacheAbove {
        @Route('/b')
        @Cache()
        @UseInterceptors(new Tag())
        summarize() {
          return undefined;
        }
      }
      return CacheAbove;
    };
    expect(cacheAbove).toThrow(
      /^@Cache\(\) on summarize\(\) is written above @UseInterceptors\(a Tag\)/,
    );
  });
});
