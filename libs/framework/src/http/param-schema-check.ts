import { Injectable, type Type } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import { installedNestVersion } from '../module/nest-version.js';
import { misreadSchemas, nestReadsParamSchema } from './param-schema-support.js';
import { ParamSchemaUnsupportedError } from './param-schema-unsupported.error.js';

/**
 * On a Nest without Standard Schema on its parameter decorators (Nest 11), a `{ schema }` given
 * to `@Body`, `@Query` or `@Param` that Nest took for a pipe stops the start with
 * {@link ParamSchemaUnsupportedError}, naming each parameter, instead of failing every request
 * to the route. It reads the metadata Nest recorded for the application's controllers, in its
 * constructor: providers are built when the application is created, before any route is served.
 */
@Injectable()
export class ParamSchemaCheck {
  constructor(discovery: DiscoveryService) {
    if (nestReadsParamSchema()) return;
    const misread = discovery
      .getControllers()
      .map((wrapper) => wrapper.metatype)
      .filter((metatype): metatype is Type => typeof metatype === 'function')
      .flatMap((controller) => misreadSchemas(controller));
    if (misread.length > 0) throw new ParamSchemaUnsupportedError(misread, installedNestVersion());
  }
}
