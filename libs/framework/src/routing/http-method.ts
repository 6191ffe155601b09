import { RequestMethod } from '@nestjs/common';

/** HTTP methods a route can answer. */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'HEAD' | 'OPTIONS';

const KNOWN: readonly HttpMethod[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'];

/** Upper-cases, de-duplicates and checks a method list; defaults to `['GET']`. */
export function normalizeMethods(methods: readonly string[] | undefined): HttpMethod[] {
  const list = (methods && methods.length > 0 ? methods : ['GET']).map((m) => m.toUpperCase());
  for (const method of list) {
    if (!KNOWN.includes(method as HttpMethod)) {
      throw new TypeError(`Unknown HTTP method "${method}" (use one of ${KNOWN.join(', ')})`);
    }
  }
  return [...new Set(list)] as HttpMethod[];
}

/** Nest's enum value for a single method, or ALL when a route answers several. */
export function toRequestMethod(methods: readonly HttpMethod[]): RequestMethod {
  return methods.length === 1 ? RequestMethod[methods[0]] : RequestMethod.ALL;
}
