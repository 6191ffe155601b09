import type { MemoryMessage } from '../../memory/memory-message.js';
import type { MemoryStore } from '../../memory/memory-store.interface.js';
import { BudgetExceededError } from './budget-exceeded.error.js';

const TOTAL = 'total:';

/** What a day's entries add up to: the last running total, plus the costs after it. */
function spentIn(entries: readonly MemoryMessage[]): number {
  let spent = 0;
  for (const entry of entries) {
    if (entry.content.startsWith(TOTAL)) spent = Number(entry.content.slice(TOTAL.length)) || 0;
    else spent += Number(entry.content) || 0;
  }
  return spent;
}

/**
 * Per-user daily spend kept in the memory backend (so every process sees it on Redis or
 * PostgreSQL): one atomic append per priced call under `budget:<user>:<YYYY-MM-DD>`, with a
 * running total written before the list would reach `maxHistory`. A call is refused when the
 * user has already spent the limit; a call in flight may finish past it.
 *
 * @example
 * const ledger = new SpendLedger(store, 2);
 * await ledger.check('alice'); // throws BudgetExceededError (429) once $2 is spent today
 * await ledger.record('alice', 0.0042);
 */
export class SpendLedger {
  constructor(
    private readonly store: MemoryStore,
    /** USD per user per UTC day. */
    readonly limitUsd: number,
    private readonly now: () => Date = () => new Date(),
  ) {}

  private key(userId: string): string {
    return `budget:${userId}:${this.now().toISOString().slice(0, 10)}`;
  }

  /** USD the user spent today (UTC). */
  async spent(userId: string): Promise<number> {
    return spentIn(await this.store.list(this.key(userId)));
  }

  /** Throws {@link BudgetExceededError} when the user's budget for today is spent. */
  async check(userId: string): Promise<void> {
    if ((await this.spent(userId)) < this.limitUsd) return;
    const now = this.now();
    const next = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
    throw new BudgetExceededError(
      this.limitUsd,
      Math.max(1, Math.ceil((next - now.getTime()) / 1000)),
    );
  }

  /** Adds the cost of one call to the user's day. */
  async record(userId: string, usd: number): Promise<void> {
    if (!(usd > 0)) return;
    const key = this.key(userId);
    const entries = await this.store.list(key);
    const timestamp = this.now().toISOString();
    // Before old entries would be dropped, write the running total instead of the cost.
    const content =
      entries.length >= this.store.maxHistory - 1
        ? `${TOTAL}${spentIn(entries) + usd}`
        : String(usd);
    await this.store.append(key, { role: 'system', content, timestamp });
  }
}
