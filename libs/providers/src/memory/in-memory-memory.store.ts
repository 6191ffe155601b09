import { LRUCache } from 'lru-cache';
import { ConfigError } from '../errors/config.error.js';
import { DEFAULT_MAX_CONVERSATIONS, assertMaxConversations } from './max-conversations.js';
import { assertMaxHistory } from './max-history.js';
import type { MemoryMessage } from './memory-message.js';
import {
  assertPositiveInteger,
  assertValidMessages,
  assertValidUserId,
  copyMessage,
} from './memory-message.validation.js';
import type { MemoryStore } from './memory-store.interface.js';
import { MemoryUnavailableError } from './memory-unavailable.error.js';

/** Options of {@link InMemoryMemoryStore}. */
export interface InMemoryMemoryStoreOptions {
  /** Newest messages kept per user. @default 100 */
  maxHistory?: number;
  /** Most conversations kept; the least recently used (read or written) is dropped. @default 10000 */
  maxConversations?: number;
  /** Seconds a conversation may stay unused (no read or write) before it is dropped; `0`: never. @default 86400 */
  ttlSeconds?: number;
  /** Clock in milliseconds (tests pass a controllable one). @default performance.now */
  now?: () => number;
}

/** Runs `fn` so that a throw becomes a rejection, like every other store's methods. */
function settle<T>(fn: () => T): Promise<T> {
  return new Promise<T>((resolve) => resolve(fn()));
}

/**
 * Histories in this process's memory (`memory.backend: memory`, the default). Lost on restart and
 * not shared between processes: use Redis or PostgreSQL to scale out. Bounded: at most
 * `maxConversations` histories (least recently used dropped first), and a history unused for
 * `ttlSeconds` is gone, so clients inventing user ids cannot grow the heap without limit.
 *
 * @example
 * const store = new InMemoryMemoryStore({ maxHistory: 50, maxConversations: 1000, ttlSeconds: 3600 });
 */
export class InMemoryMemoryStore implements MemoryStore {
  readonly backend = 'memory' as const;
  readonly maxHistory: number;
  /** Most conversations kept. */
  readonly maxConversations: number;
  private readonly histories: LRUCache<string, MemoryMessage[]>;
  private closed = false;

  constructor(options: InMemoryMemoryStoreOptions = {}) {
    this.maxHistory = assertMaxHistory(options.maxHistory ?? 100);
    this.maxConversations = assertMaxConversations(
      options.maxConversations ?? DEFAULT_MAX_CONVERSATIONS,
    );
    const ttl = assertSetting(
      'memory.ttl',
      options.ttlSeconds ?? 86_400,
      (n) => Number.isFinite(n) && n >= 0,
      'a non-negative number of seconds',
    );
    const now = options.now;
    this.histories = new LRUCache<string, MemoryMessage[]>({
      max: this.maxConversations,
      ...(ttl > 0 ? { ttl: Math.max(1, Math.round(ttl * 1000)), updateAgeOnGet: true } : {}),
      ...(now ? { perf: { now }, ttlResolution: 0 } : {}),
    });
  }

  /** Conversations currently held (an expired one may count until touched or evicted). */
  get conversations(): number {
    return this.histories.size;
  }

  append(userId: string, message: MemoryMessage): Promise<void> {
    return this.appendMany(userId, [message]);
  }

  appendMany(userId: string, messages: MemoryMessage[]): Promise<void> {
    return settle(() => {
      this.assertOpen();
      assertValidUserId(userId);
      assertValidMessages(messages);
      if (messages.length === 0) return;
      const history = this.histories.get(userId) ?? [];
      for (const message of messages) history.push(copyMessage(message));
      if (history.length > this.maxHistory) history.splice(0, history.length - this.maxHistory);
      this.histories.set(userId, history);
    });
  }

  list(userId: string, limit: number = this.maxHistory): Promise<MemoryMessage[]> {
    return settle(() => {
      this.assertOpen();
      assertValidUserId(userId);
      assertPositiveInteger('limit', limit, true);
      const count = Math.min(limit, this.maxHistory);
      const history = this.histories.get(userId) ?? [];
      return count === 0 ? [] : history.slice(-count).map(copyMessage);
    });
  }

  clear(userId: string): Promise<void> {
    return settle(() => {
      this.assertOpen();
      assertValidUserId(userId);
      this.histories.delete(userId);
    });
  }

  ping(): Promise<void> {
    return settle(() => this.assertOpen());
  }

  close(): Promise<void> {
    this.closed = true;
    this.histories.clear();
    return Promise.resolve();
  }

  private assertOpen(): void {
    if (this.closed) throw new MemoryUnavailableError('memory', 'store has been closed');
  }
}

function assertSetting(
  key: string,
  value: number,
  ok: (n: number) => boolean,
  what: string,
): number {
  if (typeof value !== 'number' || !ok(value)) {
    throw new ConfigError(
      key,
      `must be ${what} (got ${String(value)})`,
      'the memory store options',
    );
  }
  return value;
}
