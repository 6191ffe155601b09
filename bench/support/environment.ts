import { readFileSync } from 'node:fs';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import pg from 'pg';
import type { GitState } from './git-state.js';
import type { BenchSettings } from './settings.js';

/** The repository root (this file runs from `dist/bench/support/`). */
export const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** Where and with what the benchmarks ran. */
export interface Environment {
  /** UTC date the run started, `YYYY-MM-DD`. */
  date: string;
  commandLine: string;
  git: GitState;
  machine: string[];
  versions: Record<string, string>;
}

function packageVersion(name: string): string {
  const file =
    name === 'toolkit' ? `${ROOT}package.json` : `${ROOT}node_modules/${name}/package.json`;
  try {
    return (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version;
  } catch {
    return 'unknown';
  }
}

async function redisVersion(url: string): Promise<string> {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await redis.connect();
    return /redis_version:(\S+)/.exec(await redis.info('server'))?.[1] ?? 'unknown';
  } catch {
    return 'unreachable';
  } finally {
    redis.disconnect();
  }
}

async function postgresVersion(url: string): Promise<string> {
  const client = new pg.Client({ connectionString: url });
  try {
    await client.connect();
    return (await client.query<{ server_version: string }>('SHOW server_version')).rows[0]
      .server_version;
  } catch {
    return 'unreachable';
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** The command that reproduces this run, with the BENCH_* settings that were set. */
function commandLine(): string {
  const env = Object.entries(process.env)
    .filter(([name]) => name.startsWith('BENCH_'))
    .map(([name, value]) => `${name}=${value}`);
  const command =
    process.env.npm_lifecycle_event === 'bench'
      ? 'npm run bench'
      : `node ${process.argv.slice(1).join(' ')}`;
  return [...env, command].join(' ');
}

/** Collects machine, versions and the command line for the results file. */
export async function describeEnvironment(
  settings: BenchSettings,
  git: GitState,
): Promise<Environment> {
  const cpus = os.cpus();
  return {
    date: new Date().toISOString().slice(0, 10),
    commandLine: commandLine(),
    git,
    machine: [
      `${cpus.length} × ${cpus[0]?.model ?? 'unknown CPU'}`,
      `${(os.totalmem() / 1024 ** 3).toFixed(1)} GiB memory`,
      `${os.type()} ${os.release()} (${os.arch()})`,
      `load average at start: ${os
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(', ')}`,
    ],
    versions: {
      node: process.version,
      toolkit: packageVersion('toolkit'),
      '@nestjs/core': packageVersion('@nestjs/core'),
      '@nestjs/platform-express': packageVersion('@nestjs/platform-express'),
      express: packageVersion('express'),
      'class-validator': packageVersion('class-validator'),
      '@nestjs/cache-manager': packageVersion('@nestjs/cache-manager'),
      'cache-manager': packageVersion('cache-manager'),
      '@keyv/redis': packageVersion('@keyv/redis'),
      commander: packageVersion('commander'),
      ioredis: packageVersion('ioredis'),
      pg: packageVersion('pg'),
      autocannon: packageVersion('autocannon'),
      supertest: packageVersion('supertest'),
      'redis-server': await redisVersion(settings.redisUrl),
      postgresql: await postgresVersion(settings.postgresUrl),
    },
  };
}
