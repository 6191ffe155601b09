import type {
  AddTurnOptions,
  ToDictListOptions,
  MemoryMessage,
  MemoryRole,
} from '../../providers/src/index.js';
import { InvalidMessageError } from '../../providers/src/index.js';
import type { ConversationMemory } from '../../providers/src/internal.js';
import {
  assertValidMessage,
  assertValidUserId,
  copyMessage,
  fitTokenBudget,
  buildTurn,
} from '../../providers/src/internal.js';

/**
 * One recorded {@link MockMemory} call, e.g. `['addMessage', 'alice', 'user', 'Hi']` or
 * `['addTurn', 'alice', 'Hi', 'Hello!', { interrupted: false }]`.
 */
export type MockMemoryCall =
  | ['addMessage', string, MemoryRole, string]
  | ['addTurn', string, string, string, AddTurnOptions]
  | ['getHistory', string, number | undefined]
  | ['clear', string];

/** Options of {@link MockMemory}. */
export interface MockMemoryOptions {
  /** Newest messages kept per user, like `memory.max_history`. @default Infinity (all) */
  maxHistory?: number;
  /** Clock used to stamp messages. @default () => new Date() */
  now?: () => Date;
}

/**
 * In-memory conversation memory for tests that records every call in `calls`. Invalid roles and
 * non-string content are refused exactly like the real backends (`InvalidMessageError`, 422),
 * after the call is recorded.
 *
 * `for(userId)` gives the same `ConversationMemory` API the app's memory has (`add`, `addTurn`,
 * `toDictList`, `clear`), going through `addMessage`/`addTurn`/`getHistory`/`clear`, so a `MockMemory` can
 * replace the framework's `MemoryService` and tests still assert on `calls`.
 *
 * @example
 * const memory = new MockMemory();
 * memory.addMessage('alice', 'user', 'Hi');
 * memory.getHistory('alice'); // [{ role: 'user', content: 'Hi', timestamp: '…' }]
 * expect(memory.calls).toEqual([['addMessage', 'alice', 'user', 'Hi'], ['getHistory', 'alice', undefined]]);
 */
export class MockMemory {
  /** Every call, in order. `reset()` empties it. */
  readonly calls: MockMemoryCall[] = [];
  private readonly histories = new Map<string, MemoryMessage[]>();
  private readonly maxHistory: number;
  private readonly now: () => Date;

  constructor(options: MockMemoryOptions = {}) {
    this.maxHistory = options.maxHistory ?? Number.POSITIVE_INFINITY;
    this.now = options.now ?? (() => new Date());
  }

  /** Appends a message to `userId`'s history; returns the stored message. */
  addMessage(userId: string, role: MemoryRole, content: string): MemoryMessage {
    this.calls.push(['addMessage', userId, role, content]);
    assertValidUserId(userId);
    assertValidMessage(role, content);
    const message: MemoryMessage = { role, content, timestamp: this.now().toISOString() };
    const history = this.histories.get(userId) ?? [];
    history.push(message);
    if (history.length > this.maxHistory) history.splice(0, history.length - this.maxHistory);
    this.histories.set(userId, history);
    return { ...message };
  }

  /**
   * Appends a whole turn (user message, then assistant answer, marked
   * `metadata: { interrupted: true }` when `options.interrupted`, carrying `options.tools` as its
   * `tools`, validated and cut to their bound like the real memory); both or neither. Returns the
   * two stored messages. The recorded call holds `tools` only when given.
   */
  addTurn(
    userId: string,
    user: string,
    assistant: string,
    options: AddTurnOptions = {},
  ): MemoryMessage[] {
    const recorded: AddTurnOptions = { interrupted: options.interrupted === true };
    if (options.tools !== undefined) recorded.tools = options.tools;
    this.calls.push(['addTurn', userId, user, assistant, recorded]);
    assertValidUserId(userId);
    const turn = buildTurn(user, assistant, options, this.now().toISOString());
    const history = this.histories.get(userId) ?? [];
    history.push(...turn.map(copyMessage));
    if (history.length > this.maxHistory) history.splice(0, history.length - this.maxHistory);
    this.histories.set(userId, history);
    return turn.map(copyMessage);
  }

  /** The newest `limit` messages (all when omitted), oldest first, as copies. */
  getHistory(userId: string, limit?: number): MemoryMessage[] {
    this.calls.push(['getHistory', userId, limit]);
    if (limit !== undefined && (!Number.isSafeInteger(limit) || limit < 0)) {
      throw new InvalidMessageError([
        { param: 'limit', problem: `must be a non-negative integer (got ${String(limit)})` },
      ]);
    }
    const history = this.histories.get(userId) ?? [];
    const recent = limit === undefined ? history : limit === 0 ? [] : history.slice(-limit);
    return recent.map(copyMessage);
  }

  /** Forgets `userId`'s history. */
  clear(userId: string): void {
    this.calls.push(['clear', userId]);
    this.histories.delete(userId);
  }

  /** Empties `calls` only; stored histories stay. */
  reset(): void {
    this.calls.length = 0;
  }

  /**
   * The `ConversationMemory` of one user, backed by this mock: `add` records `addMessage`,
   * `toDictList` records `getHistory(userId, undefined)` (then applies `maxTokens` like the real
   * one), `clear` records `clear`.
   */
  for(userId: string): ConversationMemory {
    assertValidUserId(userId);
    return {
      userId,
      add: (role, content) => settle(() => this.addMessage(userId, role, content)),
      addTurn: (user, assistant, options) =>
        settle(() => this.addTurn(userId, user, assistant, options)),
      toDictList: (options: ToDictListOptions = {}) =>
        settle(() => {
          const { maxTokens } = options;
          if (maxTokens !== undefined && (!Number.isSafeInteger(maxTokens) || maxTokens <= 0)) {
            throw new InvalidMessageError([
              {
                param: 'maxTokens',
                problem: `must be a positive integer (got ${String(maxTokens)})`,
              },
            ]);
          }
          const history = this.getHistory(userId);
          return maxTokens === undefined ? history : fitTokenBudget(history, maxTokens);
        }),
      clear: () => settle(() => this.clear(userId)),
    };
  }
}

function settle<T>(fn: () => T): Promise<T> {
  return new Promise<T>((resolve) => resolve(fn()));
}
