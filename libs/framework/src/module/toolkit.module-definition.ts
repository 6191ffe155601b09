import { ConfigurableModuleBuilder } from '@nestjs/common';
import type { ToolkitConfigInput } from '../config/toolkit-config.interface.js';

/** Options of `ToolkitModule.forRoot()` / `forRootAsync()`. Every field is optional. */
export interface ToolkitModuleOptions {
  /** Configuration given in code; `toolkit.yaml` and `TOOLKIT_*` variables still override it. */
  config?: ToolkitConfigInput;
  /** Folder holding `toolkit.yaml` and `.env`. @default process.cwd() */
  cwd?: string;
  /** Application title for the OpenAPI document. @default config `app.name` */
  title?: string;
  /** Application version for the OpenAPI document and `/health`. @default "0.0.0" */
  version?: string;
  /** Serve the OpenAPI document at `/openapi.json`. @default true */
  openapi?: boolean;
  /**
   * Which errors get toolkit's `{ "error": ... }` body. `'toolkit'`: those of toolkit routes
   * (`@Route`, `@Stream`, `app.route`) and toolkit errors thrown anywhere; the application's
   * other routes keep Nest's default bodies. `'all'`: every route, and unknown paths answer
   * `404 { "error": "Not Found" }` (or 405 with `Allow` for a known path); `App` uses this.
   * @default 'toolkit'
   */
  errors?: 'toolkit' | 'all';
  /**
   * Validate the DTO classes and Standard Schemas (`@Body({ schema })`) of Nest's own `@Body`,
   * `@Query` and `@Param` on every route, answering toolkit's 422 that names each parameter, and
   * convert `number`/`boolean` query and path values — what a global `ValidationPipe` does,
   * applied only to the parameters that need it. `App` turns it on; leave it off when your
   * application installs its own `ValidationPipe`. (`@Arg` and `app.route` parameters are always
   * checked.)
   * @default false
   */
  validate?: boolean;
}

export const {
  ConfigurableModuleClass: ToolkitModuleBase,
  MODULE_OPTIONS_TOKEN: TOOLKIT_MODULE_OPTIONS,
  OPTIONS_TYPE: TOOLKIT_OPTIONS_TYPE,
  ASYNC_OPTIONS_TYPE: TOOLKIT_ASYNC_OPTIONS_TYPE,
} = new ConfigurableModuleBuilder<ToolkitModuleOptions>()
  .setClassMethodName('forRoot')
  .setExtras({ isGlobal: true }, (definition, extras) => ({
    ...definition,
    global: extras.isGlobal,
  }))
  .build();
