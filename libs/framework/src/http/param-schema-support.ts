import { Body, type PipeTransform, type Type } from '@nestjs/common';
import { ROUTE_ARGS_METADATA } from '@nestjs/common/constants.js';
import type { StandardSchemaV1 } from '@standard-schema/spec';
import { ToolkitError } from '../../../providers/src/errors/toolkit.error.js';
import { isStandardSchema } from '../routing/standard-schema.js';

/** What Nest records for one parameter of a route. */
interface ParamMetadata {
  index: number;
  pipes?: unknown[];
  schema?: unknown;
}

/**
 * What a parameter declared with `@Body({ schema })` (or `@Query`/`@Param`) answers on a Nest
 * without Standard Schema on its parameter decorators (Nest 11): a 500 whose message, in the
 * log, says what to change. Toolkit also warns once at start-up, naming the parameters.
 */
export class ParamSchemaUnsupportedError extends ToolkitError {
  constructor(where: string) {
    super(
      `${where} declares { schema } on a Nest parameter decorator, which needs Nest 12; ` +
        `upgrade @nestjs/common and @nestjs/core to ^12, or use @Arg(name, { schema }) or a DTO class`,
      { statusCode: 500 },
    );
    this.name = 'ParamSchemaUnsupportedError';
  }
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
 * On a Nest that reads `{ schema }` as a pipe (Nest 11), replaces each such options object among
 * `controller`'s parameter pipes with one that throws {@link ParamSchemaUnsupportedError}, instead
 * of Nest's `pipe.transform is not a function` on every request. Call before Nest registers the
 * routes (it reads the pipes then).
 *
 * @returns the parameters changed, as `Controller.method(#index)`
 */
export function replaceMisreadSchemas(controller: Type): string[] {
  const changed: string[] = [];
  const prototype = controller.prototype as object;
  for (const method of Object.getOwnPropertyNames(prototype)) {
    const args = Reflect.getMetadata(ROUTE_ARGS_METADATA, controller, method) as
      Record<string, ParamMetadata> | undefined;
    for (const param of Object.values(args ?? {})) {
      const at = param.pipes?.findIndex(isSchemaOptions) ?? -1;
      if (!param.pipes || at < 0) continue;
      const where = `${controller.name}.${method}(#${param.index})`;
      param.pipes[at] = new UnsupportedSchemaPipe(where);
      changed.push(where);
    }
  }
  return changed;
}

/** `{ schema }` read as a pipe: an object with a Standard Schema and no `transform`. */
function isSchemaOptions(pipe: unknown): boolean {
  if (typeof pipe !== 'object' || pipe === null) return false;
  const candidate = pipe as { schema?: unknown; transform?: unknown };
  return typeof candidate.transform !== 'function' && isStandardSchema(candidate.schema);
}

class UnsupportedSchemaPipe implements PipeTransform {
  constructor(private readonly where: string) {}

  transform(): never {
    throw new ParamSchemaUnsupportedError(this.where);
  }
}
