import type { ToolkitConfig } from '../../../../libs/framework/src/index.js';
import type { RagSettings } from '../../../../libs/framework/src/internal.js';
import { loadConfig } from '../../../../libs/framework/src/internal.js';

/** Where ingestion jobs go, as the project's configuration says. */
export interface IngestSettings {
  config: ToolkitConfig;
  rag: RagSettings;
  /** The Redis URL jobs are queued on, or undefined when the project uses no Redis. */
  redisUrl?: string;
  /** Which setting named that URL (for messages). */
  redisKey?: string;
  /** The BullMQ queue name: `rag.queue`, or `toolkit-ingest-<app.name>`. */
  queue: string;
}

/**
 * Reads toolkit.yaml and .env in `cwd`. Redis is the one the project already uses:
 * `REDIS_URL`, else `memory.redis_url` with `memory.backend: redis`, else `cache.redis_url`
 * with `cache.backend: redis`.
 *
 * @example
 * const { redisUrl, queue } = readIngestSettings(process.cwd(), process.env);
 */
export function readIngestSettings(cwd: string, env: NodeJS.ProcessEnv): IngestSettings {
  const config = loadConfig({ cwd, env });
  const rag = config.rag;
  const queue = rag.queue || `toolkit-ingest-${config.app.name.replace(/[^\w.-]/g, '-')}`;
  const fromEnv = env.REDIS_URL?.trim();
  if (fromEnv) return { config, rag, queue, redisUrl: fromEnv, redisKey: 'REDIS_URL' };
  if (config.memory.backend === 'redis')
    return { config, rag, queue, redisUrl: config.memory.redis_url, redisKey: 'memory.redis_url' };
  if (config.cache.backend === 'redis')
    return { config, rag, queue, redisUrl: config.cache.redis_url, redisKey: 'cache.redis_url' };
  return { config, rag, queue };
}

/** The one-line error of a project without Redis. */
export const NO_REDIS_MESSAGE =
  'no Redis configured for ingestion jobs: set REDIS_URL, or memory.backend: redis / cache.backend: redis with its redis_url in toolkit.yaml';
