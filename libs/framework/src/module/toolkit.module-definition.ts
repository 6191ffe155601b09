import { ConfigurableModuleBuilder } from '@nestjs/common';
import type { ToolkitConfigInput } from '../config/toolkit-config.interface.js';

/** Options of `ToolkitModule.forRoot()` / `forRootAsync()`. */
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
}

export const {
  ConfigurableModuleClass: ToolkitModuleBase,
  MODULE_OPTIONS_TOKEN: TOOLKIT_MODULE_OPTIONS,
} = new ConfigurableModuleBuilder<ToolkitModuleOptions>()
  .setClassMethodName('forRoot')
  .setExtras({ isGlobal: true }, (definition, extras) => ({
    ...definition,
    global: extras.isGlobal,
  }))
  .build();
