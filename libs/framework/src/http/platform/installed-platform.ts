import { createRequire } from 'node:module';
import type { PlatformName } from './http-platform.js';
import { PLATFORM_PACKAGES } from './platform-adapter.js';

const requireFromToolkit = createRequire(import.meta.url);

/**
 * The platform whose Nest package the application installed: Express when
 * `@nestjs/platform-express` resolves (Nest's default), else Fastify when
 * `@nestjs/platform-fastify` does (a Fastify-only app installs no Express), else Express, whose
 * missing package then gets its install command when an app starts.
 */
export function installedPlatform(
  resolve: (name: string) => string = (name) => requireFromToolkit.resolve(name),
): PlatformName {
  for (const platform of ['express', 'fastify'] as const) {
    try {
      resolve(PLATFORM_PACKAGES[platform]);
      return platform;
    } catch {
      // Not installed: try the next one.
    }
  }
  return 'express';
}
