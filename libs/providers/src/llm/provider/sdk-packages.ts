import { createRequire } from 'node:module';
import type { ProviderApi } from '../resolution/providers.table.js';

/**
 * The SDK package each wire protocol runs on. They are optional peers of toolkit: a project
 * installs the ones its models use (`toolkit new` lists `openai`; Claude models need
 * `@anthropic-ai/sdk`).
 */
export const SDK_PACKAGES: Readonly<Record<ProviderApi, string | undefined>> = {
  openai: 'openai',
  anthropic: '@anthropic-ai/sdk',
  echo: undefined,
};

const requireFromToolkit = createRequire(import.meta.url);
const presence = new Map<string, boolean>();

/** True when `name` resolves from toolkit's location (the package is installed). */
export function isPackageInstalled(name: string): boolean {
  let installed = presence.get(name);
  if (installed === undefined) {
    try {
      requireFromToolkit.resolve(name);
      installed = true;
    } catch {
      installed = false;
    }
    presence.set(name, installed);
  }
  return installed;
}

/**
 * The SDK package `api` needs when it is not installed, else undefined.
 *
 * @example
 * missingSdk('anthropic'); // '@anthropic-ai/sdk' in a project that did not install it
 */
export function missingSdk(
  api: ProviderApi,
  installed: (name: string) => boolean = isPackageInstalled,
): string | undefined {
  const name = SDK_PACKAGES[api];
  return name !== undefined && !installed(name) ? name : undefined;
}
