import { RequestMethod, type Type } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants.js';
import { ARGS_METADATA, ROUTE_METADATA, STREAM_METADATA } from '../toolkit.constants.js';
import type { RouteMetadata } from '../routing/route.decorator.js';
import type { NormalizedParam } from '../routing/param-spec.js';
import { hasValidatedParams } from '../http/validated-params.js';
import { paramSchema } from './param-schema.js';

/** One controller as the builder needs it. */
export interface ControllerEntry {
  prototype: object;
  controllerPath: string;
  methodNames: string[];
}

type JsonObject = Record<string, unknown>;

/**
 * Builds an OpenAPI 3.1 document from the routes' own metadata: paths and methods from Nest's
 * mapping, parameters from `@Arg`/`params` (path ones from `:name` segments), SSE routes marked
 * as `text/event-stream`. Only a route whose parameters toolkit checks gets a 422 response: one
 * with `@Arg`/`params`, or, with `validate` (`ToolkitModule`'s option), one with a DTO- or
 * schema-typed `@Body`/`@Query`/`@Param` (see `needsValidation`); the application's other routes
 * answer what their own code answers.
 */
export function buildOpenApi(
  info: { title: string; version: string },
  controllers: ControllerEntry[],
  { validate = false }: { validate?: boolean } = {},
): JsonObject {
  const paths: Record<string, JsonObject> = {};
  for (const controller of controllers) {
    for (const name of controller.methodNames) {
      const handler = (controller.prototype as Record<string, unknown>)[name];
      if (typeof handler !== 'function') continue;
      const subPath = Reflect.getMetadata(PATH_METADATA, handler) as string | string[] | undefined;
      if (subPath === undefined) continue;
      const route = Reflect.getMetadata(ROUTE_METADATA, handler) as RouteMetadata | undefined;
      const methods = route?.methods ?? [
        RequestMethod[Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod],
      ];
      const params = [
        ...(route?.params ?? []),
        ...((Reflect.getMetadata(ARGS_METADATA, handler) as NormalizedParam[] | undefined) ?? []),
      ];
      const stream = Reflect.hasMetadata(STREAM_METADATA, handler);
      const checked =
        params.length > 0 ||
        (validate && hasValidatedParams(controller.prototype.constructor as Type, name));
      for (const path of Array.isArray(subPath) ? subPath : [subPath]) {
        const full = joinPaths(controller.controllerPath, path);
        const item = (paths[toOpenApiPath(full)] ??= {});
        for (const method of methods) {
          if (method === 'ALL' || method === 'HEAD') continue;
          item[method.toLowerCase()] = operation(full, method, params, {
            stream,
            checked,
            summary: route?.summary ?? name,
          });
        }
      }
    }
  }
  return { openapi: '3.1.0', info, paths };
}

/** What an operation's responses and summary depend on besides its parameters. */
interface OperationTraits {
  /** The route answers Server-Sent Events. */
  stream: boolean;
  /** Toolkit checks the route's parameters, so it may answer 422. */
  checked: boolean;
  summary: string;
}

function operation(
  path: string,
  method: string,
  params: NormalizedParam[],
  { stream, checked, summary }: OperationTraits,
): JsonObject {
  const pathNames = [...path.matchAll(/:(\w+)/g)].map((m) => m[1]);
  const inBody = method === 'POST' || method === 'PUT' || method === 'PATCH';
  const parameters: JsonObject[] = pathNames.map((name) => ({
    name,
    in: 'path',
    required: true,
    schema: { type: 'string' },
  }));
  const bodyProps: Record<string, JsonObject> = {};
  const required: string[] = [];
  for (const param of params) {
    if (pathNames.includes(param.name)) continue;
    const schema = paramSchema(param);
    if (inBody && param.in !== 'query') {
      bodyProps[param.name] = schema;
      if (param.required) required.push(param.name);
    } else {
      parameters.push({ name: param.name, in: 'query', required: param.required, schema });
    }
  }
  const op: JsonObject = {
    summary,
    operationId: `${method.toLowerCase()}${path.replace(/[^a-zA-Z0-9]+(.)?/g, (_m, c?: string) => (c ? c.toUpperCase() : ''))}`,
    parameters,
    responses: {
      '200': stream
        ? { description: 'Server-Sent Events', content: { 'text/event-stream': {} } }
        : { description: 'Success' },
      ...(checked ? { '422': { description: 'Invalid parameters' } } : {}),
    },
  };
  if (Object.keys(bodyProps).length > 0) {
    op.requestBody = {
      required: required.length > 0,
      content: {
        'application/json': { schema: { type: 'object', properties: bodyProps, required } },
      },
    };
  }
  return op;
}

function joinPaths(a: string, b: string): string {
  const joined = `/${[a, b]
    .map((p) => p.replace(/^\/+|\/+$/g, ''))
    .filter(Boolean)
    .join('/')}`;
  return joined;
}

function toOpenApiPath(path: string): string {
  return path.replace(/:(\w+)/g, '{$1}');
}
