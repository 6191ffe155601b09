import type { ToolkitConfig } from './toolkit-config.interface.js';

/**
 * The environment each configuration was resolved from, beside it rather than in it: a
 * configuration is logged and shown (`toolkit doctor`), its environment holds API keys.
 */
const ENVIRONMENTS = new WeakMap<object, Record<string, string | undefined>>();

/** Records `env` (with `.env` filled in) as the environment `config` was resolved from. */
export function rememberEnvironment(
  config: ToolkitConfig,
  env: Record<string, string | undefined>,
): void {
  ENVIRONMENTS.set(config, env);
}

/**
 * The environment `config` was resolved from by `loadConfig`: the variables it was given
 * (`process.env` by default) with those of the project's `.env` added. What toolkit's providers
 * read their API keys and base URLs from, so they see exactly what the configuration saw;
 * `process.env` for a configuration built by hand (a test's `TOOLKIT_CONFIG` value).
 *
 * @example
 * const config = loadConfig({ cwd, env: {} });
 * environmentOf(config).OPENAI_API_KEY; // from the project's .env only
 */
export function environmentOf(config: Partial<ToolkitConfig>): Record<string, string | undefined> {
  return ENVIRONMENTS.get(config) ?? process.env;
}
