import type { HttpAnswer } from './http-client.js';

/** One declared parameter of a route, as the OpenAPI document describes it. */
export interface CatalogParam {
  name: string;
  in: 'body' | 'query' | 'path';
  type: string;
  required: boolean;
}

/** One route of an app under test. */
export interface CatalogRoute {
  method: string;
  /** Express-style path (`/items/:id`). */
  path: string;
  params: CatalogParam[];
  /** Answers with Server-Sent Events. */
  stream: boolean;
}

interface OpenApiOperation {
  parameters?: { name: string; in: string; required?: boolean; schema?: { type?: string } }[];
  requestBody?: {
    content?: Record<
      string,
      { schema?: { properties?: Record<string, { type?: string }>; required?: string[] } }
    >;
  };
  responses?: Record<string, { content?: Record<string, unknown> }>;
}

/**
 * Every route an app serves, read from its own `/openapi.json`, so a new app or route is fuzzed
 * without listing it anywhere. The document itself is left out.
 */
export function catalogFrom(openapi: HttpAnswer): CatalogRoute[] {
  const doc = JSON.parse(openapi.body) as {
    paths: Record<string, Record<string, OpenApiOperation>>;
  };
  const routes: CatalogRoute[] = [];
  for (const [path, operations] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(operations)) {
      const params: CatalogParam[] = (op.parameters ?? []).map((p) => ({
        name: p.name,
        in: p.in === 'path' ? 'path' : 'query',
        type: p.schema?.type ?? 'string',
        required: p.required === true,
      }));
      const schema = op.requestBody?.content?.['application/json']?.schema;
      for (const [name, prop] of Object.entries(schema?.properties ?? {})) {
        params.push({
          name,
          in: 'body',
          type: prop.type ?? 'any',
          required: schema?.required?.includes(name) ?? false,
        });
      }
      routes.push({
        method: method.toUpperCase(),
        path: path.replace(/\{(\w+)\}/g, ':$1'),
        params,
        stream: Object.values(op.responses ?? {}).some(
          (r) => 'text/event-stream' in (r.content ?? {}),
        ),
      });
    }
  }
  return routes;
}

/** A concrete path for a route: `:name` segments get `value`. */
export function concretePath(route: CatalogRoute, value = 'x'): string {
  return route.path.replace(/:(\w+)/g, () => encodeURIComponent(value));
}

/** A value of the declared type, for building valid requests. */
export function sampleValue(type: string): unknown {
  switch (type) {
    case 'integer':
    case 'number':
      return 2;
    case 'boolean':
      return true;
    case 'array':
      return ['a'];
    case 'object':
      return { a: 1 };
    default:
      return 'hello';
  }
}
