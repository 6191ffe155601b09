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
   * convert `number`/`boolean` query and path values — what a global `ValidationPipe` does; any
   * other parameter is handed over at once, as it came. (`@Arg` and `app.route` parameters are
   * always checked, by toolkit itself.) `App` turns it on; leave it off when your application
   * installs its own `ValidationPipe`.
   *
   * It is a global pipe (an `APP_PIPE` provider, as Nest documents for a global
   * `ValidationPipe`), so it runs where global pipes run: before the pipes of controllers,
   * methods and parameters (`ParseIntPipe` sees the converted number), and among the global
   * ones in the order Nest applies them (one added with `app.useGlobalPipes()` runs after it;
   * an `APP_PIPE` of the module importing toolkit's, such as `App`'s `providers`, before it).
   * `forRoot()` without it adds no pipe at all. With `forRootAsync()`, the factory's value
   * decides: off, the provider gives Nest no pipe, and none runs.
   * @default false
   */
  validate?: boolean;
  /**
   * Give every answer an `X-Request-Id` (the incoming one kept behind a trusted proxy,
   * `app.trust_proxy`, when well-formed), run each request in its context so that log lines
   * written during it carry the id (`currentRequestId()`, `ToolkitLogger`), and log an access
   * line per request when `app.access_log` is on. `App` and `createTestingApp` always do; off,
   * the host's answers are untouched.
   * @default false
   */
  requestIds?: boolean;
}

/**
 * Options of `forRoot()` / `forRootAsync()` that decide what the module adds to the application,
 * so they are given in code, beside `useFactory` for `forRootAsync()` (a factory's result cannot
 * change the routes Nest registers).
 *
 * @example
 * ToolkitModule.forRootAsync({ openapi: true, useFactory: (env: Env) => ({ cwd: env.dir }), inject: [Env] })
 */
export interface ToolkitModuleExtras {
  /** Make toolkit's providers (`LLM`, `TOOLKIT_CONFIG`, ...) global. @default true */
  isGlobal?: boolean;
  /**
   * Serve toolkit's OpenAPI document of the application's routes at `GET /openapi.json`. Off, the
   * path is the application's own (Nest answers its 404 when nothing else serves it). `App` and
   * the project templates turn it on.
   * @default false
   */
  openapi?: boolean;
  /**
   * The application runs on one of toolkit's adapters (`ToolkitExpressAdapter` from
   * `toolkit/express`, `ToolkitFastifyAdapter` from `toolkit/fastify`), which apply toolkit's
   * return rules themselves, so the module adds no interceptor for them. Off, a global
   * interceptor applies the rules on toolkit routes (and steps aside on toolkit's adapters);
   * each route then also runs Nest's interceptor pipeline. `App` and `createTestingApp` turn it on.
   * @default false
   */
  adapterReplies?: boolean;
}

export const {
  ConfigurableModuleClass: ToolkitModuleBase,
  MODULE_OPTIONS_TOKEN: TOOLKIT_MODULE_OPTIONS,
  OPTIONS_TYPE: TOOLKIT_OPTIONS_TYPE,
  ASYNC_OPTIONS_TYPE: TOOLKIT_ASYNC_OPTIONS_TYPE,
} = new ConfigurableModuleBuilder<ToolkitModuleOptions>()
  .setClassMethodName('forRoot')
  // `openapi` and `adapterReplies` are applied by `ToolkitModule.forRoot`/`forRootAsync` (what they
  // add imports this file).
  .setExtras<ToolkitModuleExtras>(
    { isGlobal: true, openapi: false, adapterReplies: false },
    (definition, extras) => ({
      ...definition,
      global: extras.isGlobal,
    }),
  )
  .build();
