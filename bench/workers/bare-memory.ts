import { Redis } from 'ioredis';
import pg from 'pg';
import { deleteKeys } from '../support/cleanup.js';

/** The two operations the memory benchmark times, plus clean-up. */
export interface MemoryOps {
  add(user: string, content: string): Promise<void>;
  list(user: string): Promise<{ role: string; content: string; timestamp: string }[]>;
  /** One timed op: `add` then `list`, the way a chat request uses its user's memory. */
  turn?(user: string, content: string): Promise<{ role: string }[]>;
  cleanup(): Promise<void>;
}

interface Message {
  role: string;
  content: string;
  timestamp: string;
}

/**
 * The baseline: the same history kept with the bare client and nothing else — a Map of arrays;
 * ioredis MULTI(RPUSH, LTRIM) + LRANGE of JSON entries; pg INSERT + SELECT ... LIMIT.
 */
export async function bareMemory(
  backend: 'memory' | 'redis' | 'postgres',
  options: { redisUrl: string; postgresUrl: string; prefix: string; history: number },
): Promise<MemoryOps> {
  const { history } = options;
  const message = (content: string): Message => ({
    role: 'user',
    content,
    timestamp: new Date().toISOString(),
  });
  if (backend === 'memory') {
    const map = new Map<string, Message[]>();
    return {
      add: async (user, content) => {
        const list = map.get(user) ?? [];
        list.push(message(content));
        if (list.length > history) list.splice(0, list.length - history);
        map.set(user, list);
      },
      list: async (user) => (map.get(user) ?? []).slice(-history).map((m) => ({ ...m })),
      cleanup: async () => map.clear(),
    };
  }
  if (backend === 'redis') {
    const redis = new Redis(options.redisUrl);
    const key = (user: string): string => `${options.prefix}:bare:${user}`;
    return {
      add: async (user, content) => {
        await redis
          .multi()
          .rpush(key(user), JSON.stringify(message(content)))
          .ltrim(key(user), -history, -1)
          .exec();
      },
      list: async (user) =>
        (await redis.lrange(key(user), -history, -1)).map((raw) => JSON.parse(raw) as Message),
      cleanup: async () => {
        await deleteKeys(options.redisUrl, `${options.prefix}:`);
        redis.disconnect();
      },
    };
  }
  const table = `${options.prefix}_bare`;
  const pool = new pg.Pool({ connectionString: options.postgresUrl, max: 10 });
  await pool.query(
    `CREATE TABLE "${table}" (id bigserial PRIMARY KEY, user_id text NOT NULL, role text NOT NULL,
       content text NOT NULL, created_at timestamptz NOT NULL)`,
  );
  await pool.query(`CREATE INDEX ON "${table}" (user_id, id)`);
  return {
    add: async (user, content) => {
      const m = message(content);
      await pool.query(
        `INSERT INTO "${table}" (user_id, role, content, created_at) VALUES ($1, $2, $3, $4)`,
        [user, m.role, m.content, m.timestamp],
      );
    },
    list: async (user) => {
      const { rows } = await pool.query<{ role: string; content: string; created_at: Date }>(
        `SELECT role, content, created_at FROM "${table}" WHERE user_id = $1 ORDER BY id DESC LIMIT $2`,
        [user, history],
      );
      return rows.reverse().map((r) => ({
        role: r.role,
        content: r.content,
        timestamp: r.created_at.toISOString(),
      }));
    },
    cleanup: async () => {
      await pool.query(`DROP TABLE IF EXISTS "${table}"`);
      await pool.end();
    },
  };
}
