import type { DynamicModule, Provider } from '@nestjs/common';
import { APP_PIPE } from '@nestjs/core';
import {
  TOOLKIT_MODULE_OPTIONS,
  type ToolkitModuleOptions,
} from '../module/toolkit.module-definition.js';
import { ToolkitValidationPipe } from './toolkit-validation.pipe.js';

/**
 * Toolkit's validation as Nest documents a global `ValidationPipe`: an `APP_PIPE` provider. Its
 * factory reads `validate` from the module's options, so a `forRootAsync` factory decides too;
 * off, it gives no pipe, and Nest then runs none (it skips an enhancer a factory returns nothing
 * for), so no parameter pays for it.
 */
export const validationPipeProvider: Provider = {
  provide: APP_PIPE,
  useFactory: (options: ToolkitModuleOptions): ToolkitValidationPipe | null =>
    options.validate ? new ToolkitValidationPipe() : null,
  inject: [TOOLKIT_MODULE_OPTIONS],
};

/**
 * `module` with {@link validationPipeProvider}. `forRoot` adds it only when `validate` is on;
 * `forRootAsync` always does, leaving the choice to the options its factory resolves.
 */
export function withValidationPipe(module: DynamicModule): DynamicModule {
  return { ...module, providers: [...(module.providers ?? []), validationPipeProvider] };
}
