import { Inject, Injectable, type Type } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import {
  TOOLKIT_MODULE_OPTIONS,
  type ToolkitModuleOptions,
} from '../module/toolkit.module-definition.js';
import { installedNestVersion } from '../module/nest-version.js';
import { attachValidation } from './attach-validation.js';
import {
  misreadSchemas,
  nestReadsParamSchema,
  ParamSchemaUnsupportedError,
} from './param-schema-support.js';

/**
 * With `ToolkitModule.forRoot({ validate: true })` (what `App` uses), gives every controller's
 * DTO- and schema-typed parameters toolkit's validation pipe (see `attachValidation`). On a Nest
 * without Standard Schema on its parameter decorators (Nest 11), a `{ schema }` Nest took for a
 * pipe stops the start with {@link ParamSchemaUnsupportedError}, naming each parameter.
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
      const misread = controllers.flatMap((controller) => misreadSchemas(controller));
      if (misread.length > 0)
        throw new ParamSchemaUnsupportedError(misread, installedNestVersion());
    }
    if (!options.validate) return;
    for (const controller of controllers) attachValidation(controller);
  }
}
