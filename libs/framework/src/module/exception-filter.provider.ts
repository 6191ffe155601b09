import type { DynamicModule, ModuleMetadata, Provider } from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import { ToolkitExceptionFilter } from '../http/exception.filter.js';

/**
 * Toolkit's exception filter as a global filter: what `ToolkitModule.forRoot()` and
 * `forRootAsync()` register, and what {@link exceptionFilterFirst} moves to the root module.
 * Compared by identity, so there is one such object.
 */
export const exceptionFilterProvider: Provider = {
  provide: APP_FILTER,
  useClass: ToolkitExceptionFilter,
};

/**
 * `root` (a root module's metadata, importing `ToolkitModule.forRoot()` or `forRootAsync()`) with
 * toolkit's exception filter registered by the root itself, ahead of the root's own providers,
 * instead of by `ToolkitModule`. Nest registers the root module's global filters before those of
 * its imports and tries the last registered first, and toolkit's filter catches everything; placed
 * first, it is tried last, so an `APP_FILTER` of the application (in `providers` or in any
 * import) gets the exceptions its `@Catch()` names before toolkit answers the rest. `App` and
 * `createTestingModule` build their root this way. A root that does not import `ToolkitModule`
 * directly is returned as it is.
 *
 * @example
 * const root = exceptionFilterFirst({
 *   module: AppRoot,
 *   imports: [ToolkitModule.forRoot()],
 *   providers: [{ provide: APP_FILTER, useClass: MyFilter }], // tried before toolkit's
 * });
 */
export function exceptionFilterFirst<T extends ModuleMetadata>(root: T): T {
  let moved = false;
  const imports = (root.imports ?? []).map((imported) => {
    if (!isModuleWithFilter(imported)) return imported;
    moved = true;
    return {
      ...imported,
      providers: (imported.providers ?? []).filter((p) => p !== exceptionFilterProvider),
    };
  });
  if (!moved) return root;
  return { ...root, imports, providers: [exceptionFilterProvider, ...(root.providers ?? [])] };
}

type Imported = NonNullable<ModuleMetadata['imports']>[number];

/** A dynamic module (`ToolkitModule.forRoot()`'s) that registers toolkit's filter. */
function isModuleWithFilter(imported: Imported): imported is DynamicModule {
  if (typeof imported !== 'object' || imported === null || !('module' in imported)) return false;
  return imported.providers?.includes(exceptionFilterProvider) === true;
}
