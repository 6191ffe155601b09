import {
  type AddTurnOptions,
  type ToDictListOptions,
  type MemoryMessage,
  type MemoryRole,
} from '../../../providers/src/index.js';
import { assertValidUserId, type ConversationMemory } from '../../../providers/src/internal.js';

/**
 * The memory `app.memory(userId)` hands out before the app may have started: the first call
 * waits for the application's `MemoryService`, later calls reuse what it found (resolving it
 * through the Nest container on every call cost more than an in-memory `add` itself).
 */
export class DeferredMemory implements ConversationMemory {
  private target?: Promise<ConversationMemory>;

  constructor(
    readonly userId: string,
    private readonly resolve: () => Promise<ConversationMemory>,
  ) {
    assertValidUserId(userId);
  }

  async add(role: MemoryRole, content: string): Promise<MemoryMessage> {
    return (await this.memory()).add(role, content);
  }

  async addTurn(
    user: string,
    assistant: string,
    options?: AddTurnOptions,
  ): Promise<MemoryMessage[]> {
    return (await this.memory()).addTurn(user, assistant, options);
  }

  async toDictList(options?: ToDictListOptions): Promise<MemoryMessage[]> {
    return (await this.memory()).toDictList(options);
  }

  async clear(): Promise<void> {
    return (await this.memory()).clear();
  }

  private memory(): Promise<ConversationMemory> {
    this.target ??= this.resolve().catch((error: unknown) => {
      this.target = undefined; // e.g. the app failed to start: the next call tries again
      throw error;
    });
    return this.target;
  }
}
