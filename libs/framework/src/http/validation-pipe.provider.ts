import type { DynamicModule, Provider, Type } from '@nestjs/common';
import { APP_PIPE, DiscoveryService } from '@nestjs/core';
import {
  TOOLKIT_MODULE_OPTIONS,
  type ToolkitModuleOptions,
} from '../module/toolkit.module-definition.js';
import { ToolkitValidationPipe } from './toolkit-validation.pipe.js';
import { anyValidatedParams } from './validated-params.js';

/**
 * Toolkit's validation as Nest documents a global `ValidationPipe`: an `APP_PIPE` provider. Its
 * factory reads `validate` from the module's options, so a `forRootAsync` factory decides too,
 * and looks at the application's controllers: with `validate` off, or no parameter that needs
 * validation (an app whose routes take only `@Arg`s, say), it gives no pipe, and Nest then runs
 * none (it skips an enhancer a factory returns nothing for), so no parameter pays for it.
 */
export const validationPipeProvider: Provider = {
  provide: APP_PIPE,
  useFactory: (
    options: ToolkitModuleOptions,
    discovery: DiscoveryService,
  ): ToolkitValidationPipe | null => {
    if (!options.validate) return null;
    const controllers = discovery
      .getControllers()
      .map((wrapper) => wrapper.metatype)
      .filter((metatype): metatype is Type => typeof metatype === 'function');
    return anyValidatedParams(controllers) ? new ToolkitValidationPipe() : null;
  },
  inject: [TOOLKIT_MODULE_OPTIONS, DiscoveryService],
};

/**
 * `module` with {@link validationPipeProvider}. `forRoot` adds it only when `validate` is on;
 * `forRootAsync` always does, leaving the choice to the options its factory resolves.
 */
export function withValidationPipe(module: DynamicModule): DynamicModule {
  return { ...module, providers: [...(module.providers ?? []), validationPipeProvider] };
}
