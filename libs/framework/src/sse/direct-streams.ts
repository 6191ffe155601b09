import { Injectable, type Type } from '@nestjs/common';
import { INTERCEPTORS_METADATA } from '@nestjs/common/constants.js';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum.js';
import { DiscoveryService, MetadataScanner } from '@nestjs/core';
import { mayReadSignalEarly } from '../routing/request-signal.js';
import { routeInfo } from '../routing/route-info.js';
import { paramIndexOfType } from '../routing/route-params.decorator.js';
import type { StreamOptions } from './stream-options.js';
import { StreamInterceptor } from './stream.interceptor.js';

type Method = (this: unknown, ...args: unknown[]) => unknown;

/**
 * Takes Nest's interceptor pipeline out of the common stream route. A `@Stream()` method whose
 * only interceptor of its own is the stream's (no `@Cache`, no `@UseInterceptors`), that is not
 * resumable and has no parameter decorator toolkit does not know, gets, on the controller
 * instance Nest serves, a handler that streams what the method returns itself: Nest then calls
 * it like any handler with no method interceptor, and the stream skips the Observables that
 * Nest's pipeline builds around each request. Class and global interceptors still wrap it
 * and see what they saw before (`undefined` once the stream ends).
 *
 * The handler carries the method's metadata (guards, filters, `@Route`, ...) but not its
 * interceptors. Called other than by Nest's router (no response object where the hidden `@Res()`
 * is), it is the method itself, so `app.get(Controller).method()` still returns the generator.
 */
@Injectable()
export class DirectStreams {
  constructor(
    private readonly discovery: DiscoveryService,
    private readonly scanner: MetadataScanner,
    private readonly interceptor: StreamInterceptor,
  ) {}

  /** Installs the direct handlers; call before Nest registers the routes (it reads them then). */
  install(): void {
    for (const wrapper of this.discovery.getControllers()) {
      const instance = wrapper.instance as Record<string, unknown> | undefined;
      const controller = wrapper.metatype;
      // A request-scoped controller is built per request: it keeps the interceptor path.
      if (!instance || typeof controller !== 'function' || !wrapper.isDependencyTreeStatic()) {
        continue;
      }
      const prototype = Object.getPrototypeOf(instance) as object;
      for (const name of this.scanner.getAllMethodNames(prototype)) {
        if (Object.hasOwn(instance, name)) continue; // installed already, or the user's own
        const method = instance[name];
        if (typeof method !== 'function') continue;
        const route = directRoute(controller as Type, name, method);
        if (!route) continue;
        Object.defineProperty(instance, name, {
          configurable: true,
          writable: true,
          value: this.direct(method as Method, route.stream, route.responseIndex),
        });
      }
    }
  }

  private direct(method: Method, stream: StreamOptions, responseIndex: number): Method {
    const interceptor = this.interceptor;
    const handler = function (this: unknown, ...args: unknown[]): unknown {
      const reply = args[responseIndex];
      if (typeof reply !== 'object' || reply === null) return method.apply(this, args);
      return interceptor.streamDirect(handler, stream, reply, () => method.apply(this, args));
    };
    Object.defineProperty(handler, 'name', { value: method.name });
    for (const key of Reflect.getMetadataKeys(method) as unknown[]) {
      if (key === INTERCEPTORS_METADATA) continue;
      Reflect.defineMetadata(key, Reflect.getMetadata(key, method), handler);
    }
    return handler;
  }
}

/**
 * The stream options and the index of the response among the arguments of a method the direct
 * path can serve; undefined when the method keeps the interceptor path.
 */
function directRoute(
  controller: Type,
  name: string,
  method: object,
): { stream: StreamOptions; responseIndex: number } | undefined {
  const stream = routeInfo(method)?.stream;
  if (!stream || stream.resumable) return undefined;
  const interceptors = Reflect.getMetadata(INTERCEPTORS_METADATA, method) as unknown[] | undefined;
  if (interceptors?.length !== 1 || interceptors[0] !== StreamInterceptor) return undefined;
  if (mayReadSignalEarly(controller, method)) return undefined;
  const responseIndex = paramIndexOfType(
    controller.prototype as object,
    name,
    RouteParamtypes.RESPONSE,
  );
  return responseIndex === undefined ? undefined : { stream, responseIndex };
}
