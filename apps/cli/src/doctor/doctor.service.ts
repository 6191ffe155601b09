import { Injectable } from '@nestjs/common';
import type { ToolkitConfig } from '../../../../libs/framework/src/index.js';
import { isKeySet } from '../../../../libs/providers/src/index.js';
import {
  resolveDefaultModel,
  missingSdk,
  resolveModel,
} from '../../../../libs/providers/src/internal.js';
import { isPortFree } from '../dev/port-check.js';
import type { PlatformId } from '../deploy/deploy-platform.interface.js';
import { PlatformClientService } from '../deploy/platform-client.service.js';
import { probePostgres, probeRedis } from './backend-probes.js';
import { probeMcpServers } from './mcp-probes.js';
import { checkConfig } from './config-check.js';
import { printDoctorReport, type DoctorCheck } from './doctor-check.js';
import { isSupportedNode, SUPPORTED_NODE } from './node-version.js';

/** What `toolkit doctor` checks. */
export interface DoctorRequest {
  /** Project folder (holding `toolkit.yaml` and `.env`). */
  cwd: string;
  /** Environment; `.env` is layered onto a copy. */
  env: NodeJS.ProcessEnv;
  /** Explain the resolution of this model name instead of the configured ones. */
  model?: string;
  /** Port the app will listen on. */
  port: number;
  /** Host the app will bind. */
  host: string;
  /** Also check the deploy client of this platform. */
  platform?: PlatformId;
  /** Print JSON instead of lines. */
  json: boolean;
}

/**
 * `toolkit doctor`: checks the Node version, the configuration, the model each configured name
 * resolves to (and whether its key is set, never printing it), the configured backends with their
 * round trip, the port, and with `--platform` the deploy client; prints one line per check (or
 * JSON) and fails with status 1 when any check failed.
 */
@Injectable()
export class DoctorService {
  constructor(private readonly clients: PlatformClientService) {}

  async run(request: DoctorRequest): Promise<void> {
    printDoctorReport(await this.check(request), request.json);
  }

  /** Every check, in the order printed. */
  async check(request: DoctorRequest): Promise<DoctorCheck[]> {
    const env = { ...request.env };
    const { check, config } = checkConfig(request.cwd, env);
    const checks: DoctorCheck[] = [nodeCheck(process.versions.node), check];
    if (config) {
      checks.push(modelCheck(config, env, request.model));
      if (request.model === undefined) checks.push(...(await backendChecks(config)));
      if (request.model === undefined) checks.push(...(await probeMcpServers(config.mcp, env)));
    }
    checks.push(await portCheck(request.host, request.port));
    if (request.platform) checks.push(await this.clients.check(request.platform));
    return checks;
  }
}

function nodeCheck(version: string): DoctorCheck {
  return isSupportedNode(version)
    ? { name: 'node', status: 'ok', detail: `v${version} (supported: ${SUPPORTED_NODE})` }
    : {
        name: 'node',
        status: 'fail',
        detail: `v${version} is not supported (supported: ${SUPPORTED_NODE})`,
        fix: 'install Node 22.12 or later, or Node 24 (the current LTS)',
      };
}

/** Which model `name` (default: `llm.default_model`) resolves to, by which rule, key set or not. */
function modelCheck(config: ToolkitConfig, env: NodeJS.ProcessEnv, name?: string): DoctorCheck {
  const provider = config.llm.default_provider;
  const configured = name ?? config.llm.default_model;
  const choice = resolveDefaultModel(configured, env, provider);
  const label = name === undefined ? 'llm.default_model' : 'model';
  const via = configured === choice.model ? '' : ` = ${choice.model} (${choice.reason})`;
  if (choice.offline && choice.model === 'echo') {
    return {
      name: 'model',
      status: 'warn',
      detail: `${label} ${configured}${via}: the offline echo model answers`,
      fix: 'put a provider key such as OPENAI_API_KEY or ANTHROPIC_API_KEY in .env',
    };
  }
  try {
    const resolved = resolveModel(choice.model, { env, defaultProvider: provider });
    const rule = `by rule ${resolved.rule}`;
    const head = `${label} ${configured}${via} -> ${resolved.label} ${resolved.model}, ${rule}`;
    const sdk = missingSdk(resolved.api);
    if (sdk !== undefined) {
      return {
        name: 'model',
        status: 'fail',
        detail: `${head}, but its SDK package ${sdk} is not installed`,
        fix: `npm install ${sdk}`,
      };
    }
    if (!resolved.keyVar) return { name: 'model', status: 'ok', detail: `${head}, no key needed` };
    if (isKeySet(env[resolved.keyVar])) {
      return { name: 'model', status: 'ok', detail: `${head}, ${resolved.keyVar} set` };
    }
    return {
      name: 'model',
      status: 'fail',
      detail: `${head}, ${resolved.keyVar} not set`,
      fix: `put ${resolved.keyVar}=<your key> in .env`,
    };
  } catch (error) {
    return {
      name: 'model',
      status: 'fail',
      detail: error instanceof Error ? error.message.split('\n')[0] : String(error),
      fix: 'use a model name the table recognises, or provider/model',
    };
  }
}

/** The Redis and PostgreSQL servers the configuration uses, each probed once. */
async function backendChecks(config: ToolkitConfig): Promise<DoctorCheck[]> {
  const redis = new Map<string, string>();
  if (config.memory.backend === 'redis') redis.set(config.memory.redis_url, 'memory.redis_url');
  if (
    config.cache.enabled &&
    config.cache.backend === 'redis' &&
    !redis.has(config.cache.redis_url)
  )
    redis.set(config.cache.redis_url, 'cache.redis_url');
  const postgres = new Map<string, { key: string; vector: boolean }>();
  if (config.memory.backend === 'postgres')
    postgres.set(config.memory.postgres_url, { key: 'memory.postgres_url', vector: false });
  if (config.rag.store === 'pgvector')
    postgres.set(config.rag.postgres_url, { key: 'rag.postgres_url', vector: true });
  const checks: DoctorCheck[] = [];
  for (const [url, key] of redis) checks.push(await probeRedis(key, url));
  for (const [url, { key, vector }] of postgres)
    checks.push(...(await probePostgres(key, url, vector)));
  return checks;
}

async function portCheck(host: string, port: number): Promise<DoctorCheck> {
  return (await isPortFree(host, port))
    ? { name: 'port', status: 'ok', detail: `${host}:${port} is free` }
    : {
        name: 'port',
        status: 'fail',
        detail: `${host}:${port} is in use`,
        fix: `stop what listens there, or serve on another port (--port ${port + 1} or PORT=${port + 1})`,
      };
}
