import { Body, type Type } from '@nestjs/common';
import { ROUTE_ARGS_METADATA } from '@nestjs/common/constants.js';
import type { StandardSchemaV1 } from '@standard-schema/spec';
import { isStandardSchema } from '../routing/standard-schema.js';

/** What Nest records for one parameter of a route. */
interface ParamMetadata {
  index: number;
  pipes?: unknown[];
  schema?: unknown;
}

let supported: boolean | undefined;

/**
 * True when Nest's `@Body`/`@Query`/`@Param` take `{ schema }` (Nest 12): detected once by
 * applying `@Body({ schema })` to a probe class and reading the parameter metadata Nest records.
 */
export function nestReadsParamSchema(): boolean {
  supported ??= probe();
  return supported;
}

function probe(): boolean {
  class Probe {
    handle(_body: unknown): void {}
  }
  const schema: StandardSchemaV1 = {
    '~standard': { version: 1, vendor: 'toolkit', validate: (value) => ({ value }) },
  };
  Body({ schema })(Probe.prototype, 'handle', 0);
  const args = Reflect.getMetadata(ROUTE_ARGS_METADATA, Probe, 'handle') as
    Record<string, ParamMetadata> | undefined;
  return Object.values(args ?? {}).some((param) => param.schema === schema);
}

/**
 * The parameters of `controller` whose `{ schema }` a Nest without Standard Schema on its
 * parameter decorators (Nest 11) took for a pipe, as `Controller.method(#index)`. Reads the
 * metadata Nest recorded; changes nothing.
 */
export function misreadSchemas(controller: Type): string[] {
  const found: string[] = [];
  const prototype = controller.prototype as object;
  for (const method of Object.getOwnPropertyNames(prototype)) {
    const args = Reflect.getMetadata(ROUTE_ARGS_METADATA, controller, method) as
      Record<string, ParamMetadata> | undefined;
    for (const param of Object.values(args ?? {})) {
      if (param.pipes?.some(isSchemaOptions)) {
        found.push(`${controller.name}.${method}(#${param.index})`);
      }
    }
  }
  return found;
}

/** `{ schema }` read as a pipe: an object with a Standard Schema and no `transform`. */
function isSchemaOptions(pipe: unknown): boolean {
  if (typeof pipe !== 'object' || pipe === null) return false;
  const candidate = pipe as { schema?: unknown; transform?: unknown };
  return typeof candidate.transform !== 'function' && isStandardSchema(candidate.schema);
}
