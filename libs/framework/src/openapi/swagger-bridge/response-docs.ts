import type { ApiResponseOptions } from '@nestjs/swagger';
import { errorBodyModel } from './error-body.model.js';
import { apply, type DecoratedMethod } from './decorated-method.js';
import type { SwaggerPackage } from './host-swagger.js';

/** Handlers whose success response is the plain one `@Route` declared, which `@Stream` may refine. */
const plainSuccess = new WeakSet<object>();

/**
 * Declares a response through swagger's `ApiResponse` unless the method already declares that
 * status (one of your own decorators applied before toolkit's): yours wins. One of yours applied
 * after toolkit's is merged into it by swagger, so it wins too (toolkit's success description is
 * empty, as swagger's own default response's is, so the two do not pile up).
 */
function declare(
  swagger: SwaggerPackage,
  method: DecoratedMethod,
  options: ApiResponseOptions & { status: number | '4XX' | '5XX' },
): boolean {
  const handler = method.descriptor.value as object;
  const responses = Reflect.getMetadata(swagger.DECORATORS.API_RESPONSE, handler) as
    Record<string, unknown> | undefined;
  if (responses && String(options.status) in responses) return false;
  apply(swagger.ApiResponse(options), method);
  return true;
}

/**
 * The success response of a toolkit route that does not stream: `status` (200, or the method's
 * `@HttpCode`) with no schema, as swagger documents any route. Declared because swagger's own
 * default would be 201 for POST, which toolkit routes do not answer.
 */
export function documentSuccess(
  swagger: SwaggerPackage,
  method: DecoratedMethod,
  status: number,
): void {
  if (declare(swagger, method, { status, description: '' }) && status === 200) {
    plainSuccess.add(method.descriptor.value as object);
  }
}

/**
 * The 200 of a `@Stream` route: `text/event-stream`, each event an `event:`/`data:` frame (an
 * `event: error` one with `{ "error" }` data if the source fails mid-stream). It replaces the
 * plain success response `@Route` declared when `@Route` ran first, never one of yours.
 */
export function documentStreamSuccess(swagger: SwaggerPackage, method: DecoratedMethod): void {
  const options = {
    status: 200,
    description: 'Server-Sent Events',
    content: { 'text/event-stream': { schema: { type: 'string' as const } } },
  };
  if (plainSuccess.delete(method.descriptor.value as object))
    apply(swagger.ApiResponse(options), method);
  else declare(swagger, method, options);
}

/**
 * The `{ "error": string, "details"?: [...] }` body of toolkit's error answers, as JSON whatever
 * the method's `@ApiProduces`: a 422 when toolkit checks the route's parameters (`@Arg`,
 * `params`), and every other 4xx and 5xx (a 405 for another method, a 429, an LLM's 503, ...).
 */
export function documentErrors(
  swagger: SwaggerPackage,
  method: DecoratedMethod,
  { checked }: { checked: boolean },
): void {
  const model = errorBodyModel(swagger);
  apply(swagger.ApiExtraModels(model), method);
  const content = { 'application/json': { schema: { $ref: swagger.getSchemaPath(model) } } };
  if (checked)
    declare(swagger, method, { status: 422, description: 'Invalid parameters', content });
  declare(swagger, method, { status: '4XX', description: 'Client error', content });
  declare(swagger, method, { status: '5XX', description: 'Server error', content });
}
