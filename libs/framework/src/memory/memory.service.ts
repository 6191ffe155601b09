import { Inject, Injectable } from '@nestjs/common';
import { MemoryStore, StoreConversationMemory } from '../../../providers/src/index.js';
import { type ConversationMemory } from '../../../providers/src/internal.js';

/**
 * Per-user conversation memory on the configured backend (`memory.backend`: in-process, Redis
 * or PostgreSQL). Inject it and call `for(userId)`; the backend's connections close with the app
 * (after open streams ended).
 *
 * @example
 * constructor(private readonly memory: MemoryService) {}
 * async chat(userId: string, message: string) {
 *   const history = this.memory.for(userId);
 *   await history.add('user', message);
 *   return history.toDictList();
 * }
 */
@Injectable()
export class MemoryService {
  constructor(@Inject(MemoryStore) private readonly store: MemoryStore) {}

  /** The conversation of one user (oldest message first; `memory.max_history` newest kept). */
  for(userId: string): ConversationMemory {
    return new StoreConversationMemory(this.store, userId);
  }
}
