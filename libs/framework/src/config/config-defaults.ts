import { CONFIG_SCHEMA } from './config.schema.js';
import type { ToolkitConfig } from './toolkit-config.interface.js';

type Section = keyof typeof CONFIG_SCHEMA;
const SECTIONS = Object.keys(CONFIG_SCHEMA) as Section[];

/** A new configuration holding the schema's defaults only (no file, code or environment). */
export function configDefaults(): ToolkitConfig {
  const config: Record<string, unknown> = { extra: {} };
  for (const section of SECTIONS) {
    config[section] = Object.fromEntries(
      Object.entries(CONFIG_SCHEMA[section]).map(([key, spec]) => [key, spec.default]),
    );
  }
  return config as unknown as ToolkitConfig;
}

let standalone: ToolkitConfig | undefined;

/**
 * The configuration toolkit's interceptors, guards and pipes use in a module that does not import
 * `ToolkitModule` (the unit test `nest g controller` writes, say): the schema's defaults, and
 * nothing read from `toolkit.yaml`, `.env` or `TOOLKIT_*` variables, so such a test answers the
 * same on every machine. One deep-frozen object per process: every enhancer sees the same one
 * (the session cookie `@Session()` issues is the one `@RateLimit()` counts). Import
 * `ToolkitModule` to configure them.
 */
export function standaloneConfig(): ToolkitConfig {
  standalone ??= deepFreeze(configDefaults());
  return standalone;
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}
