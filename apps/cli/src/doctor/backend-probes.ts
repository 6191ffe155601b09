import { loadIoredis, loadPg } from '../../../../libs/providers/src/support/backend-clients.js';
import { redactUrl, type DoctorCheck } from './doctor-check.js';

/** How long a backend may take to answer before it counts as unreachable. */
const TIMEOUT_MS = 2000;

function reasonOf(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split('\n')[0] || 'no answer';
}

/**
 * PINGs the Redis server at `url`: ok with the round trip, or a failure naming the fix.
 *
 * @example
 * const check = await probeRedis('memory.redis_url', 'redis://127.0.0.1:6379');
 */
export async function probeRedis(key: string, url: string): Promise<DoctorCheck> {
  const { Redis } = loadIoredis();
  const client = new Redis(url, {
    lazyConnect: true,
    connectTimeout: TIMEOUT_MS,
    commandTimeout: TIMEOUT_MS,
    maxRetriesPerRequest: 0,
    enableOfflineQueue: false,
    retryStrategy: () => null,
  });
  let lastError: unknown;
  client.on('error', (error: unknown) => {
    lastError = error;
  });
  try {
    await client.connect();
    const start = performance.now();
    await client.ping();
    const ms = Math.round(performance.now() - start);
    return { name: 'redis', status: 'ok', detail: `${redactUrl(url)} answered PING (${key})`, ms };
  } catch (error) {
    return {
      name: 'redis',
      status: 'fail',
      detail: `${redactUrl(url)} unreachable (${key}): ${reasonOf(lastError ?? error)}`,
      fix: `start Redis (e.g. redis-server) or point ${key} / REDIS_URL at a running server`,
    };
  } finally {
    client.disconnect();
  }
}

/**
 * Runs `SELECT 1` on the PostgreSQL server at `url`; with `needsVector`, also checks that the
 * pgvector extension is available there.
 *
 * @example
 * const checks = await probePostgres('rag.postgres_url', url, true);
 */
export async function probePostgres(
  key: string,
  url: string,
  needsVector: boolean,
): Promise<DoctorCheck[]> {
  const { Pool } = loadPg();
  const pool = new Pool({ connectionString: url, connectionTimeoutMillis: TIMEOUT_MS, max: 1 });
  pool.on('error', () => undefined);
  const shown = redactUrl(url);
  try {
    const start = performance.now();
    await pool.query('SELECT 1');
    const ms = Math.round(performance.now() - start);
    const checks: DoctorCheck[] = [
      { name: 'postgres', status: 'ok', detail: `${shown} answered SELECT 1 (${key})`, ms },
    ];
    if (needsVector) {
      const found = await pool.query<{ version: string | null }>(
        "SELECT COALESCE(installed_version, default_version) AS version FROM pg_available_extensions WHERE name = 'vector'",
      );
      const version = found.rows[0]?.version;
      checks.push(
        version
          ? { name: 'pgvector', status: 'ok', detail: `vector ${version} available on ${shown}` }
          : {
              name: 'pgvector',
              status: 'fail',
              detail: `${shown} has no pgvector extension (${key})`,
              fix: 'install pgvector on that server (e.g. apt-get install postgresql-16-pgvector) or set rag.store: local',
            },
      );
    }
    return checks;
  } catch (error) {
    return [
      {
        name: 'postgres',
        status: 'fail',
        detail: `${shown} unreachable (${key}): ${reasonOf(error)}`,
        fix: `start PostgreSQL or point ${key} / DATABASE_URL at a running server`,
      },
    ];
  } finally {
    await pool.end().catch(() => undefined);
  }
}
