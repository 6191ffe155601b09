import type { ExceptionFilter } from '@nestjs/common';
import { FILTER_CATCH_EXCEPTIONS } from '@nestjs/common/constants.js';
import type { ModuleRef } from '@nestjs/core';

type FilterList = { getGlobalFilters(): unknown[] };

/**
 * The global filter of the application's own that should answer `exception` instead of toolkit's:
 * one registered before toolkit's (an `APP_FILTER` in the module that imports `ToolkitModule`)
 * whose `@Catch()` matches. Nest tries global filters last-registered first, so those registered
 * after toolkit's had their chance already. Reads the application's filter list through Nest's
 * container; when it cannot be reached, nothing is delegated.
 */
export function earlierGlobalFilter(
  moduleRef: ModuleRef,
  self: ExceptionFilter,
  exception: unknown,
): ExceptionFilter | undefined {
  const container = (moduleRef as unknown as { container?: { applicationConfig?: FilterList } })
    .container;
  const filters = container?.applicationConfig?.getGlobalFilters() ?? [];
  for (let i = filters.indexOf(self) - 1; i >= 0; i -= 1) {
    const filter = filters[i] as Partial<ExceptionFilter> | undefined;
    if (typeof filter?.catch === 'function' && catches(filter as ExceptionFilter, exception)) {
      return filter as ExceptionFilter;
    }
  }
  return undefined;
}

function catches(filter: ExceptionFilter, exception: unknown): boolean {
  const types = (Reflect.getMetadata(FILTER_CATCH_EXCEPTIONS, filter.constructor) ?? []) as (
    (abstract new (...args: never[]) => unknown) | undefined
  )[];
  return (
    types.length === 0 || types.some((type) => type !== undefined && exception instanceof type)
  );
}
