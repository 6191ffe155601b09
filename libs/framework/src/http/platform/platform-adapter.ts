import type { AbstractHttpAdapter } from '@nestjs/core';
import { answerFrameworkError } from './fastify-framework-errors.js';
import type { PlatformName } from './http-platform.js';
import { MissingPlatformPackageError } from './missing-platform-package.error.js';

/** The Nest package each platform runs on. */
export const PLATFORM_PACKAGES: Readonly<Record<PlatformName, string>> = {
  express: '@nestjs/platform-express',
  fastify: '@nestjs/platform-fastify',
};

/** What the adapter gets from the configuration. */
export interface PlatformAdapterOptions {
  /** config `app.trust_proxy`: Fastify takes it when it is created. */
  trustProxy: boolean;
  /**
   * config `app.request_timeout` in ms, which Fastify takes when it is created (its own default
   * is no limit; `App.run` sets it on the server of either platform too). @default 0 (none)
   */
  requestTimeoutMs?: number;
  /** config `app.keep_alive_timeout` in ms, likewise (Fastify's own default is 72 s). @default 5000 */
  keepAliveTimeoutMs?: number;
}

/**
 * Imports the platform package `packageName` for `platform`, loaded when an app starts, not
 * when toolkit is imported. A missing package is a {@link MissingPlatformPackageError} naming
 * the install command; any other failure is rethrown as it is.
 */
export async function importPlatformPackage<T>(
  platform: string,
  packageName: string,
  importer: (name: string) => Promise<unknown> = (name) => import(name),
): Promise<T> {
  try {
    return (await importer(packageName)) as T;
  } catch (error) {
    const code = (error as { code?: unknown } | null)?.code;
    const message = error instanceof Error ? error.message : '';
    if (
      (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') &&
      message.includes(packageName)
    ) {
      throw new MissingPlatformPackageError(platform, packageName);
    }
    throw error;
  }
}

/**
 * A new toolkit HTTP adapter for `platform` (`ToolkitExpressAdapter` or `ToolkitFastifyAdapter`,
 * which apply toolkit's return rules), set up as toolkit's contract needs on it: on Fastify,
 * routing that matches Express's (a trailing slash ignored, case-insensitive paths, path
 * parameters of any length, malformed URLs answered as Express answers them) and `trustProxy`.
 * The platform package is loaded here, when an app starts.
 */
export async function createHttpAdapter(
  platform: PlatformName,
  options: PlatformAdapterOptions,
): Promise<AbstractHttpAdapter> {
  if (platform === 'fastify') {
    type AdapterModule = typeof import('./toolkit-fastify-adapter.js');
    const { ToolkitFastifyAdapter } = await importPlatformPackage<AdapterModule>(
      platform,
      PLATFORM_PACKAGES.fastify,
      () => import('./toolkit-fastify-adapter.js'),
    );
    return new ToolkitFastifyAdapter({
      trustProxy: options.trustProxy,
      requestTimeout: options.requestTimeoutMs ?? 0,
      keepAliveTimeout: options.keepAliveTimeoutMs ?? 5000,
      routerOptions: { ignoreTrailingSlash: true, caseSensitive: false, maxParamLength: 65_536 },
      frameworkErrors: answerFrameworkError as never,
    });
  }
  type AdapterModule = typeof import('./toolkit-express-adapter.js');
  const { ToolkitExpressAdapter } = await importPlatformPackage<AdapterModule>(
    platform,
    PLATFORM_PACKAGES.express,
    () => import('./toolkit-express-adapter.js'),
  );
  return new ToolkitExpressAdapter();
}
