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
}

/** Runs `fn` so that a throw becomes a rejection, like every other store's methods. */
function settle<T>(fn: () => T): Promise<T> {
  return new Promise<T>((resolve) => resolve(fn()));
}

/**
 * Histories in this process's memory (`memory.backend: memory`, the default). Lost on restart and
 * not shared between processes: use Redis or PostgreSQL to scale out.
 *
 * @example
 * const store = new InMemoryMemoryStore({ maxHistory: 50 });
 */
export class InMemoryMemoryStore implements MemoryStore {
  readonly backend = 'memory' as const;
  readonly maxHistory: number;
  private readonly histories = new Map<string, MemoryMessage[]>();
  private closed = false;

  constructor(options: InMemoryMemoryStoreOptions = {}) {
    this.maxHistory = assertMaxHistory(options.maxHistory ?? 100);
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

  close(): Promise<void> {
    this.closed = true;
    this.histories.clear();
    return Promise.resolve();
  }

  private assertOpen(): void {
    if (this.closed) throw new MemoryUnavailableError('memory', 'store has been closed');
  }
}
