import {
  assertValidUserId,
  type ConversationMemory,
  type MemoryMessage,
  type MemoryRole,
  type ToDictListOptions,
} from '../../../providers/src/memory/index.js';

/**
 * The memory `app.memory(userId)` hands out before the app may have started: each call waits
 * for the application's `MemoryService`, so it can be used at any point.
 */
export class DeferredMemory implements ConversationMemory {
  constructor(
    readonly userId: string,
    private readonly resolve: () => Promise<ConversationMemory>,
  ) {
    assertValidUserId(userId);
  }

  async add(role: MemoryRole, content: string): Promise<MemoryMessage> {
    return (await this.resolve()).add(role, content);
  }

  async toDictList(options?: ToDictListOptions): Promise<MemoryMessage[]> {
    return (await this.resolve()).toDictList(options);
  }

  async clear(): Promise<void> {
    return (await this.resolve()).clear();
  }
}
