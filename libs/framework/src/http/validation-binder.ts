import { Inject, Injectable, type Type } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import {
  TOOLKIT_MODULE_OPTIONS,
  type ToolkitModuleOptions,
} from '../module/toolkit.module-definition.js';
import { attachValidation } from './attach-validation.js';

/**
 * With `ToolkitModule.forRoot({ validate: true })` (what `App` uses), gives every controller's
 * DTO- and schema-typed parameters toolkit's validation pipe (see `attachValidation`). It works
 * in its constructor: providers are built before Nest registers the routes, which is when Nest
 * reads the parameters' pipes.
 */
@Injectable()
export class ValidationBinder {
  constructor(
    discovery: DiscoveryService,
    @Inject(TOOLKIT_MODULE_OPTIONS) options: ToolkitModuleOptions,
  ) {
    if (!options.validate) return;
    for (const wrapper of discovery.getControllers()) {
      if (typeof wrapper.metatype === 'function') attachValidation(wrapper.metatype as Type);
    }
  }
}
