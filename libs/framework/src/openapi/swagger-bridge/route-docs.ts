import { HTTP_CODE_METADATA } from '@nestjs/common/constants.js';
import type { NormalizedParam } from '../../routing/param-spec.js';
import type { RouteMetadata } from '../../routing/route.decorator.js';
import { ARGS_METADATA, STREAM_METADATA } from '../../toolkit.constants.js';
import { apply, type DecoratedMethod } from './decorated-method.js';
import { hostSwagger } from './host-swagger.js';
import { parameterDecorators } from './param-docs.js';
import { documentErrors, documentStreamSuccess, documentSuccess } from './response-docs.js';

/**
 * The bridge to `@nestjs/swagger`, called by `@Route` as it decorates a method: when the app has
 * `@nestjs/swagger` installed, it applies swagger's own decorators to the method, so the app's
 * `SwaggerModule.createDocument(app, config)` documents the route as toolkit answers it — its
 * `@Arg`/`params` parameters (path, query or JSON body, with type, `required`, default and
 * constraints, as in toolkit's own `/openapi.json`), `summary`, the success status (200, not
 * swagger's 201 for POST), the `{ "error" }` body of its 4xx and 5xx answers, and a 422 when toolkit
 * checks its parameters. Without `@nestjs/swagger` it does nothing. It runs at decoration time,
 * after the method's `@Arg`s (parameter decorators run before method decorators).
 *
 * Swagger decorators of your own on the method complement these; for the same response status
 * yours wins, and for the same parameter yours wins when written below `@Route`.
 */
export function documentRoute(method: DecoratedMethod, route: RouteMetadata): void {
  const swagger = hostSwagger();
  if (!swagger) return;
  const handler = method.descriptor.value as object;
  const params = [
    ...(route.params ?? []),
    ...((Reflect.getMetadata(ARGS_METADATA, handler) as NormalizedParam[] | undefined) ?? []),
  ];
  for (const decorator of parameterDecorators(swagger, route.path, route.methods, params)) {
    apply(decorator, method);
  }
  if (route.summary) {
    apply(swagger.ApiOperation({ summary: route.summary }, { overrideExisting: false }), method);
  }
  if (!Reflect.hasMetadata(STREAM_METADATA, handler)) {
    const status = Reflect.getMetadata(HTTP_CODE_METADATA, handler) as number | undefined;
    documentSuccess(swagger, method, status ?? 200);
  }
  documentErrors(swagger, method, { checked: params.length > 0 });
}

/**
 * The bridge's part of `@Stream`: with `@nestjs/swagger` installed, the method's 200 response is
 * documented as `text/event-stream`, in whichever order `@Route` and `@Stream` are written.
 */
export function documentStream(method: DecoratedMethod): void {
  const swagger = hostSwagger();
  if (swagger) documentStreamSuccess(swagger, method);
}
