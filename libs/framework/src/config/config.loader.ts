import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseDotenv } from 'dotenv';
import { parse as parseYaml } from 'yaml';
import { ConfigError } from '../../../providers/src/internal.js';
import { CONFIG_SCHEMA, type KeySpec } from './config.schema.js';
import { coerceValue } from './config-value.js';
import { rememberEnvironment } from './config-environment.js';
import { configDefaults } from './config-defaults.js';
import type { ToolkitConfig, ToolkitConfigInput } from './toolkit-config.interface.js';

/** Where {@link loadConfig} looks and what it layers on top of the defaults. */
export interface LoadConfigOptions {
  /** Folder holding `toolkit.yaml` and `.env`. @default process.cwd() */
  cwd?: string;
  /** The environment to read `DEBUG` and `TOOLKIT_*` from. @default process.env */
  env?: NodeJS.ProcessEnv;
  /** Values given in code (`new App({ config })`); the file and environment still override them. */
  overrides?: ToolkitConfigInput;
  /** Load `.env` into `env` (existing variables win). @default true */
  loadDotenv?: boolean;
}

type Section = keyof typeof CONFIG_SCHEMA;
const SECTIONS = Object.keys(CONFIG_SCHEMA) as Section[];

/**
 * Resolves the configuration: schema defaults, then code overrides, then `toolkit.yaml`, then
 * `DEBUG` and `TOOLKIT_<SECTION>_<KEY>` variables. Any bad value throws a {@link ConfigError}
 * whose one-line message names the key and its source. The environment it read (with `.env`)
 * stays known as `environmentOf(config)`, where the injected `LLM` finds its keys.
 *
 * @example
 * const config = loadConfig({ cwd: __dirname }); // config.cache.ttl === 300 by default
 */
export function loadConfig(options: LoadConfigOptions = {}): ToolkitConfig {
  const cwd = options.cwd ?? process.cwd();
  const env = options.env ?? process.env;
  if (options.loadDotenv !== false) loadDotenvInto(join(cwd, '.env'), env);

  const config = configDefaults();
  const sources = new Map<string, string>();
  applyPlatformDefaults(config, env);
  if (options.overrides) applyObject(config, options.overrides, 'the App options', sources);
  const file = join(cwd, 'toolkit.yaml');
  if (existsSync(file)) applyObject(config, readYaml(file), 'toolkit.yaml', sources);
  applyEnvironment(config, env, sources);
  checkRelations(config, sources);
  rememberEnvironment(config, env);
  return config;
}

/** Rules between keys, checked once every layer is applied; the error names the later key's source. */
function checkRelations(config: ToolkitConfig, sources: ReadonlyMap<string, string>): void {
  const { chunk_size, chunk_overlap } = config.rag;
  if (chunk_overlap >= chunk_size) {
    const source =
      sources.get('rag.chunk_overlap') ?? sources.get('rag.chunk_size') ?? 'the defaults';
    throw new ConfigError(
      'rag.chunk_overlap',
      `must be smaller than rag.chunk_size (${chunk_overlap} >= ${chunk_size})`,
      source,
    );
  }
}

/**
 * `REDIS_URL` and `DATABASE_URL`, which hosting platforms set, replace the built-in backend URLs;
 * the App options, `toolkit.yaml` and `TOOLKIT_*` variables still win over them.
 */
function applyPlatformDefaults(config: ToolkitConfig, env: NodeJS.ProcessEnv): void {
  const redis = env.REDIS_URL?.trim();
  if (redis) {
    config.cache.redis_url = redis;
    config.memory.redis_url = redis;
  }
  const database = env.DATABASE_URL?.trim();
  if (database) {
    config.memory.postgres_url = database;
    config.rag.postgres_url = database;
  }
}

/** `DEBUG` values that mean on or off; anything else (`express:*`) is for the `debug` package. */
const DEBUG_SWITCH = /^(1|0|true|false|yes|no|on|off)$/i;

function readYaml(file: string): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = parseYaml(readFileSync(file, 'utf8'));
  } catch (error) {
    const reason = error instanceof Error ? error.message.split('\n')[0] : String(error);
    throw new ConfigError('(file)', `is not valid YAML: ${reason}`, 'toolkit.yaml');
  }
  if (parsed === null || parsed === undefined) return {};
  if (typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new ConfigError('(file)', 'must be a mapping of sections', 'toolkit.yaml');
  }
  return parsed as Record<string, unknown>;
}

function applyObject(
  config: ToolkitConfig,
  input: Record<string, unknown>,
  source: string,
  sources: Map<string, string>,
): void {
  for (const [section, values] of Object.entries(input)) {
    if (!(section in CONFIG_SCHEMA)) {
      config.extra[section] = values;
      continue;
    }
    if (values === null || values === undefined) continue;
    if (typeof values !== 'object' || Array.isArray(values)) {
      throw new ConfigError(section, 'must be a mapping of keys', source);
    }
    const schema = CONFIG_SCHEMA[section as Section] as Record<string, KeySpec>;
    for (const [key, raw] of Object.entries(values as Record<string, unknown>)) {
      const spec = schema[key];
      if (!spec) {
        const known = Object.keys(schema).join(', ');
        throw new ConfigError(`${section}.${key}`, `is not a known key (known: ${known})`, source);
      }
      setValue(config, section as Section, key, spec, raw, false, source);
      sources.set(`${section}.${key}`, source);
    }
  }
}

function applyEnvironment(
  config: ToolkitConfig,
  env: NodeJS.ProcessEnv,
  sources: Map<string, string>,
): void {
  if (env.DEBUG !== undefined && DEBUG_SWITCH.test(env.DEBUG.trim())) {
    setValue(
      config,
      'app',
      'debug',
      CONFIG_SCHEMA.app.debug,
      env.DEBUG,
      true,
      'the environment (DEBUG)',
    );
  }
  for (const section of SECTIONS) {
    for (const [key, spec] of Object.entries<KeySpec>(CONFIG_SCHEMA[section])) {
      const name = `TOOLKIT_${section}_${key}`.toUpperCase();
      const raw = env[name];
      if (raw === undefined) continue;
      const source = `the environment (${name})`;
      setValue(config, section, key, spec, raw, true, source);
      sources.set(`${section}.${key}`, source);
    }
  }
}

function setValue(
  config: ToolkitConfig,
  section: Section,
  key: string,
  spec: KeySpec,
  raw: unknown,
  fromText: boolean,
  source: string,
): void {
  const result = coerceValue(spec, raw, fromText);
  if ('problem' in result) {
    const where = result.path ? `${section}.${key}.${result.path}` : `${section}.${key}`;
    throw new ConfigError(where, result.problem, source);
  }
  (config[section] as unknown as Record<string, unknown>)[key] = result.value;
}

function loadDotenvInto(file: string, env: NodeJS.ProcessEnv): void {
  if (!existsSync(file)) return;
  const parsed = parseDotenv(readFileSync(file));
  for (const [name, value] of Object.entries(parsed)) {
    if (env[name] === undefined) env[name] = value;
  }
}
