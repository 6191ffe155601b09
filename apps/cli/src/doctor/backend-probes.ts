import { loadIoredis, loadPg } from '../../../../libs/providers/src/internal.js';
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

/** What the server says about pgvector for the connected user and database. */
export interface VectorState {
  database: string;
  user: string;
  /** Major version of the server, e.g. `15`. */
  major: string;
  /** Version installed in this database (`CREATE EXTENSION vector` done), or null. */
  installed: string | null;
  /** Version the server could install, or null when pgvector is not on the server. */
  available: string | null;
  /** True when this user may run `CREATE EXTENSION vector` (superuser, or trusted + CREATE). */
  can_create: boolean;
}

const VECTOR_STATE_SQL = `
SELECT current_database() AS database, current_user AS user,
  (current_setting('server_version_num')::int / 10000)::text AS major,
  (SELECT extversion FROM pg_extension WHERE extname = 'vector') AS installed,
  (SELECT default_version FROM pg_available_extensions WHERE name = 'vector') AS available,
  COALESCE((SELECT rolsuper FROM pg_roles WHERE rolname = current_user), false)
    OR (COALESCE((SELECT bool_or(trusted) FROM pg_available_extension_versions WHERE name = 'vector'), false)
        AND has_database_privilege(current_database(), 'CREATE')) AS can_create`;

/**
 * Whether the pgvector store can work in the connected database: the extension created there,
 * or available on the server and creatable by this user (the store runs `CREATE EXTENSION` on
 * first use, a warning), or a failure naming the missing piece and its fix.
 *
 * @example
 * const line = await probeVector(pool, 'rag.postgres_url', 'postgres://db/app');
 */
export async function probeVector(
  pool: { query<R>(sql: string): Promise<{ rows: R[] }> },
  key: string,
  shown: string,
): Promise<DoctorCheck> {
  let state: VectorState | undefined;
  try {
    state = (await pool.query<VectorState>(VECTOR_STATE_SQL)).rows[0];
  } catch (error) {
    return {
      name: 'pgvector',
      status: 'fail',
      detail: `could not read the extensions of ${shown} (${key}): ${reasonOf(error)}`,
      fix: 'check that this user may read pg_extension and pg_available_extensions',
    };
  }
  if (!state) return { name: 'pgvector', status: 'fail', detail: `${shown} gave no answer` };
  const where = `database "${state.database}"`;
  if (state.installed) {
    return {
      name: 'pgvector',
      status: 'ok',
      detail: `vector ${state.installed} created in ${where} on ${shown}`,
    };
  }
  if (!state.available) {
    return {
      name: 'pgvector',
      status: 'fail',
      detail: `${shown} has no pgvector extension installed on the server (${key})`,
      fix:
        `install it on that server (e.g. apt-get install postgresql-${state.major}-pgvector), ` +
        `then run CREATE EXTENSION vector; in ${where}, or set rag.store: local`,
    };
  }
  if (state.can_create) {
    return {
      name: 'pgvector',
      status: 'warn',
      detail:
        `vector ${state.available} is available but not created in ${where} on ${shown} (${key}); ` +
        `the store runs CREATE EXTENSION vector on first use (user "${state.user}" may)`,
      fix: `none needed; to create it now, run CREATE EXTENSION vector; in ${where}`,
    };
  }
  return {
    name: 'pgvector',
    status: 'fail',
    detail:
      `vector ${state.available} is not created in ${where} on ${shown} (${key}), ` +
      `and user "${state.user}" may not create it`,
    fix: `as a superuser, run CREATE EXTENSION vector; in ${where} (e.g. psql -U postgres -d ${state.database} -c 'CREATE EXTENSION vector')`,
  };
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
    if (needsVector) checks.push(await probeVector(pool, key, shown));
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
