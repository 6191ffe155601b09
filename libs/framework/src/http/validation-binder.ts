import { Inject, Injectable, Logger, type Type } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import {
  TOOLKIT_MODULE_OPTIONS,
  type ToolkitModuleOptions,
} from '../module/toolkit.module-definition.js';
import { installedNestVersion } from '../module/nest-version.js';
import { attachValidation } from './attach-validation.js';
import { nestReadsParamSchema, replaceMisreadSchemas } from './param-schema-support.js';

/**
 * With `ToolkitModule.forRoot({ validate: true })` (what `App` uses), gives every controller's
 * DTO- and schema-typed parameters toolkit's validation pipe (see `attachValidation`). On a Nest
 * without Standard Schema on its parameter decorators (Nest 11), it turns each `{ schema }` Nest
 * took for a pipe into a clear error and warns once, naming them (see `replaceMisreadSchemas`).
 * It works in its constructor: providers are built before Nest registers the routes, which is
 * when Nest reads the parameters' pipes.
 */
@Injectable()
export class ValidationBinder {
  constructor(
    discovery: DiscoveryService,
    @Inject(TOOLKIT_MODULE_OPTIONS) options: ToolkitModuleOptions,
  ) {
    const controllers = discovery
      .getControllers()
      .map((wrapper) => wrapper.metatype)
      .filter((metatype): metatype is Type => typeof metatype === 'function');
    if (!nestReadsParamSchema()) {
      const misread = controllers.flatMap((controller) => replaceMisreadSchemas(controller));
      if (misread.length > 0) {
        new Logger('toolkit').warn(
          `{ schema } on Nest's @Body/@Query/@Param needs Nest 12 (this application has @nestjs/core ${installedNestVersion() ?? 'of unknown version'}); these parameters answer 500 until then: ${misread.join(', ')}`,
        );
      }
    }
    if (!options.validate) return;
    for (const controller of controllers) attachValidation(controller);
  }
}
