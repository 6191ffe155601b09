import type { PipeTransform, Type } from '@nestjs/common';
import { ROUTE_ARGS_METADATA } from '@nestjs/common/constants.js';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum.js';
import { ToolkitValidationPipe } from './toolkit-validation.pipe.js';

interface ParamMetadata {
  index: number;
  data?: unknown;
  pipes?: (PipeTransform | Type<PipeTransform>)[];
  schema?: unknown;
}

const CHECKED_TYPES = new Set([RouteParamtypes.BODY, RouteParamtypes.QUERY, RouteParamtypes.PARAM]);
const PLAIN_TYPES: unknown[] = [String, Boolean, Number, Array, Object, Buffer, Date];

/**
 * Gives the parameters of `controller` that ask to be validated toolkit's validation pipe, as a
 * parameter pipe: Nest's `@Body()`, `@Query()` and `@Param()` declared with a DTO class or a
 * Standard Schema (`{ schema }`), and query/path values typed `number` or `boolean` (converted
 * from text). It is what a global `ValidationPipe` does, applied only where it has work, so every
 * other parameter — toolkit's `@Arg` among them — costs no pipe at all. Idempotent.
 */
export function attachValidation(controller: Type): void {
  const pipe = new ToolkitValidationPipe();
  const prototype = controller.prototype as Record<string, unknown>;
  for (const method of methodNames(prototype)) {
    for (const param of validatedParams(controller, method)) {
      const pipes = (param.pipes ??= []);
      if (!pipes.some((p) => p instanceof ToolkitValidationPipe)) pipes.push(pipe);
    }
  }
}

/**
 * True when {@link attachValidation} gives a parameter of `controller.method` toolkit's pipe, so
 * the route may answer 422 under `validate: true`.
 */
export function hasValidatedParams(controller: Type, method: string): boolean {
  return validatedParams(controller, method).length > 0;
}

/** The parameters of `controller.method` that ask to be validated (see {@link attachValidation}). */
function validatedParams(controller: Type, method: string): ParamMetadata[] {
  const args = Reflect.getMetadata(ROUTE_ARGS_METADATA, controller, method) as
    Record<string, ParamMetadata> | undefined;
  if (!args) return [];
  const prototype = controller.prototype as object;
  const types = (Reflect.getMetadata('design:paramtypes', prototype, method) ?? []) as unknown[];
  return Object.entries(args)
    .filter(([key, param]) => {
      const paramtype = Number(key.split(':')[0]) as RouteParamtypes;
      return CHECKED_TYPES.has(paramtype) && wantsValidation(paramtype, param, types[param.index]);
    })
    .map(([, param]) => param);
}

function wantsValidation(type: RouteParamtypes, param: ParamMetadata, metatype: unknown): boolean {
  if (param.schema) return true;
  if (typeof metatype !== 'function') return false;
  if (!PLAIN_TYPES.includes(metatype)) return true; // a DTO class
  return type !== RouteParamtypes.BODY && (metatype === Number || metatype === Boolean);
}

function methodNames(prototype: Record<string, unknown>): string[] {
  const names = new Set<string>();
  for (let proto: object | null = prototype; proto && proto !== Object.prototype;) {
    for (const name of Object.getOwnPropertyNames(proto)) {
      if (name !== 'constructor') names.add(name);
    }
    proto = Object.getPrototypeOf(proto) as object | null;
  }
  return [...names];
}
