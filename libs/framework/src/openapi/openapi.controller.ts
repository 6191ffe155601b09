import { Controller, Get, Inject } from '@nestjs/common';
import { PATH_METADATA } from '@nestjs/common/constants.js';
import { DiscoveryService, MetadataScanner } from '@nestjs/core';
import type { ToolkitConfig } from '../config/toolkit-config.interface.js';
import {
  TOOLKIT_MODULE_OPTIONS,
  type ToolkitModuleOptions,
} from '../module/toolkit.module-definition.js';
import { TOOLKIT_CONFIG } from '../toolkit.constants.js';
import { buildOpenApi, type ControllerEntry } from './openapi.builder.js';

/**
 * Serves `GET /openapi.json`, built once from the application's routes; registered only with
 * `ToolkitModule.forRoot({ openapi: true })` (and by `App`).
 */
@Controller()
export class OpenApiController {
  private document?: Record<string, unknown>;

  constructor(
    private readonly discovery: DiscoveryService,
    private readonly scanner: MetadataScanner,
    @Inject(TOOLKIT_CONFIG) private readonly config: ToolkitConfig,
    @Inject(TOOLKIT_MODULE_OPTIONS) private readonly options: ToolkitModuleOptions,
  ) {}

  @Get('/openapi.json')
  openapi(): Record<string, unknown> {
    this.document ??= buildOpenApi(
      {
        title: this.options.title ?? this.config.app.name,
        version: this.options.version ?? '0.0.0',
      },
      this.controllers(),
      { validate: this.options.validate === true },
    );
    return this.document;
  }

  private controllers(): ControllerEntry[] {
    return this.discovery
      .getControllers()
      .filter(
        (wrapper) => wrapper.metatype && wrapper.instance && wrapper.metatype !== OpenApiController,
      )
      .map((wrapper) => {
        const prototype = Object.getPrototypeOf(wrapper.instance) as object;
        const raw = Reflect.getMetadata(PATH_METADATA, wrapper.metatype as object) as
          string | string[] | undefined;
        return {
          prototype,
          controllerPath: (Array.isArray(raw) ? raw[0] : raw) ?? '/',
          methodNames: this.scanner.getAllMethodNames(prototype),
        };
      });
  }
}
