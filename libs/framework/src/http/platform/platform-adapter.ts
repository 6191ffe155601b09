import type { AbstractHttpAdapter } from '@nestjs/core';
import { ToolkitError } from '../../../../providers/src/errors/toolkit.error.js';
import { answerFrameworkError } from './fastify-framework-errors.js';
import type { PlatformName } from './http-platform.js';

/** The Nest package each platform runs on. */
export const PLATFORM_PACKAGES: Readonly<Record<PlatformName, string>> = {
  express: '@nestjs/platform-express',
  fastify: '@nestjs/platform-fastify',
};

/** `app.platform` names a platform whose Nest package is not installed. */
export class MissingPlatformPackageError extends ToolkitError {
  constructor(
    readonly platform: string,
    readonly packageName: string,
  ) {
    super(
      `app.platform "${platform}" needs ${packageName}, which is not installed: run npm install ${packageName}`,
      { statusCode: 500 },
    );
  }
}

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
 * A new Nest HTTP adapter for `platform`, set up as toolkit's contract needs on it: on Fastify,
 * routing that matches Express's (a trailing slash ignored, case-insensitive paths, path
 * parameters of any length, malformed URLs answered as Express answers them) and `trustProxy`.
 */
export async function createHttpAdapter(
  platform: PlatformName,
  options: PlatformAdapterOptions,
): Promise<AbstractHttpAdapter> {
  if (platform === 'fastify') {
    type FastifyPackage = typeof import('@nestjs/platform-fastify');
    const { FastifyAdapter } = await importPlatformPackage<FastifyPackage>(
      platform,
      PLATFORM_PACKAGES.fastify,
    );
    return new FastifyAdapter({
      trustProxy: options.trustProxy,
      requestTimeout: options.requestTimeoutMs ?? 0,
      keepAliveTimeout: options.keepAliveTimeoutMs ?? 5000,
      routerOptions: { ignoreTrailingSlash: true, caseSensitive: false, maxParamLength: 65_536 },
      frameworkErrors: answerFrameworkError as never,
    });
  }
  type ExpressPackage = typeof import('@nestjs/platform-express');
  const { ExpressAdapter } = await importPlatformPackage<ExpressPackage>(
    platform,
    PLATFORM_PACKAGES.express,
  );
  return new ExpressAdapter();
}
