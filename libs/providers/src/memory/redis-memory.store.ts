import { ConfigError } from '../errors/config.error.js';
import { ToolkitError } from '../errors/toolkit.error.js';
import { DEFAULT_MAX_CONVERSATIONS, assertMaxConversations } from './max-conversations.js';
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
import { APPEND_SCRIPT, LIST_SCRIPT, RedisScript } from './redis-memory.scripts.js';
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
  /**
   * Most conversations kept under `keyPrefix`, shared by every process using it; the least
   * recently used (read or written) is deleted when a new one would pass it. @default 10000
   */
  maxConversations?: number;
}

/** Most conversations one write deletes (after `max_conversations` is lowered, the rest follow). */
const EVICT_PER_WRITE = 1000;

/**
 * Histories in Redis (`memory.backend: redis`): one list per user of JSON messages, expiring
 * `ttlSeconds` after its last write, and a sorted set `<keyPrefix>:memory-lru` of the
 * conversations by last use. Append (of one message or a whole turn), trim, TTL refresh and the
 * eviction of the least recently used conversations beyond `maxConversations` run in one Lua
 * script, so concurrent writers in any number of processes never lose a message, the list never
 * exceeds `maxHistory` and the index never holds more than `maxConversations` conversations.
 *
 * @example
 * const store = new RedisMemoryStore({ url: 'redis://127.0.0.1:6379', keyPrefix: 'myapp' });
 */
export class RedisMemoryStore implements MemoryStore {
  readonly backend = 'redis' as const;
  readonly maxHistory: number;
  private readonly keyPrefix: string;
  private readonly connection: RedisConnection;
  private readonly ttlMs: number;
  /** Most conversations kept under the key prefix, by every process together. */
  readonly maxConversations: number;

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
    this.maxConversations = assertMaxConversations(
      options.maxConversations ?? DEFAULT_MAX_CONVERSATIONS,
    );
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

  /** The sorted set of this prefix's conversations (user ids scored by last use). */
  get indexKey(): string {
    return `${this.keyPrefix}:memory-lru`;
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
    // One script: one round trip, and other writers never see half a turn nor a conversation
    // past the bound.
    await this.connection.run((redis) =>
      APPEND.run(
        redis,
        [key, this.indexKey],
        [
          userId,
          this.maxHistory,
          this.ttlMs,
          this.maxConversations,
          `${this.keyPrefix}:memory:`,
          EVICT_PER_WRITE,
          ...entries,
        ],
      ),
    );
  }

  async list(userId: string, limit: number = this.maxHistory): Promise<MemoryMessage[]> {
    assertValidUserId(userId);
    assertPositiveInteger('limit', limit, true);
    const count = Math.min(limit, this.maxHistory);
    // LRANGE key -0 -1 would mean the whole list, so zero is answered here.
    if (count === 0) return [];
    const key = this.keyFor(userId);
    const entries = await this.connection.run((redis) =>
      LIST.run(redis, [key, this.indexKey], [userId, count]),
    );
    if (!Array.isArray(entries)) {
      throw new ToolkitError(`Redis key ${key} did not read as a list`);
    }
    return entries.map((entry) => parseEntry(String(entry), key));
  }

  async clear(userId: string): Promise<void> {
    assertValidUserId(userId);
    const key = this.keyFor(userId);
    await this.connection.run((redis) => redis.multi().del(key).zrem(this.indexKey, userId).exec());
  }

  async ping(): Promise<void> {
    await this.connection.run((redis) => redis.ping());
  }

  close(): Promise<void> {
    return this.connection.close();
  }
}

const APPEND = new RedisScript(APPEND_SCRIPT);
const LIST = new RedisScript(LIST_SCRIPT);

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
