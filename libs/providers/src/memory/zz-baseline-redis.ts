import { ConfigError } from '../errors/config.error.js';
import { ToolkitError } from '../errors/toolkit.error.js';
import { assertMaxHistory } from './max-history.js';
import type { MemoryMessage } from './memory-message.js';
import {
  assertPositiveInteger,
  assertValidMessages,
  assertValidStoredMessage,
  assertValidUserId,
  copyMessage,
} from './memory-message.validation.js';
import type { MemoryStore } from './memory-store.interface.js';
import { MemoryUnavailableError } from './memory-unavailable.error.js';
import { RedisConnection } from '../backends/redis-connection.js';
import type { RedisConnectionOptions } from '../backends/redis-connection.js';

/** Options of {@link RedisMemoryStore}. */
export interface RedisMemoryStoreOptions extends RedisConnectionOptions {
  /** Redis URL, e.g. `redis://:password@host:6379/0`. @default "redis://127.0.0.1:6379" */
  url?: string;
  /** Keys are `<keyPrefix>:memory:<userId>`. @default "toolkit" */
  keyPrefix?: string;
  /** Newest messages kept per user. @default 100 */
  maxHistory?: number;
  /** Seconds a history lives after its last write (key TTL, refreshed on every write); `0`: forever. @default 86400 */
  ttlSeconds?: number;
}

/**
 * Histories in Redis (`memory.backend: redis`): one list per user of JSON messages, expiring
 * `ttlSeconds` after its last write. Append (of
 * one message or a whole turn) and trim run in one MULTI/EXEC transaction, so concurrent writers in any number of processes never
 * lose a message and the list never exceeds `maxHistory`.
 *
 * @example
 * const store = new RedisMemoryStore({ url: 'redis://127.0.0.1:6379', keyPrefix: 'myapp' });
 */
export class BaselineRedisMemoryStore implements MemoryStore {
  readonly backend = 'redis' as const;
  readonly maxHistory: number;
  private readonly keyPrefix: string;
  private readonly connection: RedisConnection;
  private readonly ttlMs: number;

  constructor(options: RedisMemoryStoreOptions = {}) {
    this.maxHistory = assertMaxHistory(options.maxHistory ?? 100);
    const ttl = options.ttlSeconds ?? 86_400;
    if (typeof ttl !== 'number' || !Number.isFinite(ttl) || ttl < 0) {
      throw new ConfigError(
        'memory.ttl',
        `must be a non-negative number of seconds (got ${String(ttl)})`,
        'the memory store options',
      );
    }
    this.ttlMs = ttl === 0 ? 0 : Math.max(1, Math.round(ttl * 1000));
    this.keyPrefix = options.keyPrefix ?? 'toolkit';
    this.connection = new RedisConnection(
      options.url ?? 'redis://127.0.0.1:6379',
      (detail, cause) => new MemoryUnavailableError('redis', detail, cause),
      options,
    );
  }

  /** The Redis key holding one user's history. */
  keyFor(userId: string): string {
    return `${this.keyPrefix}:memory:${userId}`;
  }

  append(userId: string, message: MemoryMessage): Promise<void> {
    return this.appendMany(userId, [message]);
  }

  async appendMany(userId: string, messages: MemoryMessage[]): Promise<void> {
    assertValidUserId(userId);
    assertValidMessages(messages);
    if (messages.length === 0) return;
    const key = this.keyFor(userId);
    const entries = messages.map((message) => JSON.stringify(copyMessage(message)));
    // One RPUSH of every entry (a single atomic command), the trim and the TTL refresh, in one
    // MULTI/EXEC: one round trip, and other writers never see half a turn.
    const results = await this.connection.run((redis) => {
      const transaction = redis
        .multi()
        .rpush(key, ...entries)
        .ltrim(key, -this.maxHistory, -1);
      return (this.ttlMs > 0 ? transaction.pexpire(key, this.ttlMs) : transaction).exec();
    });
    const failed = results?.find(([error]) => error !== null);
    if (results === null || failed !== undefined) {
      throw new ToolkitError('Redis memory backend did not apply an append', {
        cause: failed?.[0],
      });
    }
  }

  async list(userId: string, limit: number = this.maxHistory): Promise<MemoryMessage[]> {
    assertValidUserId(userId);
    assertPositiveInteger('limit', limit, true);
    const count = Math.min(limit, this.maxHistory);
    // LRANGE key -0 -1 would mean the whole list, so zero is answered here.
    if (count === 0) return [];
    const key = this.keyFor(userId);
    const entries = await this.connection.run((redis) => redis.lrange(key, -count, -1));
    return entries.map((entry) => parseEntry(entry, key));
  }

  async clear(userId: string): Promise<void> {
    assertValidUserId(userId);
    const key = this.keyFor(userId);
    await this.connection.run((redis) => redis.del(key));
  }

  async ping(): Promise<void> {
    await this.connection.run((redis) => redis.ping());
  }

  close(): Promise<void> {
    return this.connection.close();
  }
}

function parseEntry(entry: string, key: string): MemoryMessage {
  try {
    const message: unknown = JSON.parse(entry);
    assertValidStoredMessage(message);
    return copyMessage(message);
  } catch (error) {
    throw new ToolkitError(`Redis key ${key} holds an entry that is not a memory message`, {
      cause: error,
    });
  }
}
