export type { MemoryMessage, MemoryRole } from './memory-message.js';
export { MEMORY_ROLES } from './memory-message.js';
export { MemoryStore } from './memory-store.interface.js';
export type { MemoryBackend } from './memory-store.interface.js';
export { StoreConversationMemory } from './conversation-memory.js';
export type {
  ConversationMemory,
  ToDictListOptions,
  StoreConversationMemoryOptions,
} from './conversation-memory.js';
export { InMemoryMemoryStore } from './in-memory-memory.store.js';
export type { InMemoryMemoryStoreOptions } from './in-memory-memory.store.js';
export { RedisMemoryStore } from './redis-memory.store.js';
export type { RedisMemoryStoreOptions } from './redis-memory.store.js';
export { PostgresMemoryStore } from './postgres-memory.store.js';
export type { PostgresMemoryStoreOptions } from './postgres-memory.store.js';
export { createMemoryStore } from './memory-store.factory.js';
export type { MemoryStoreTuning } from './memory-store.factory.js';
export { MemoryUnavailableError } from './memory-unavailable.error.js';
export { InvalidMessageError } from './invalid-message.error.js';
export { assertValidMessage, assertValidUserId } from './memory-message.validation.js';
export { estimateTokens, estimateMessageTokens, fitTokenBudget } from './token-budget.js';
export { backendAddress } from './backend-address.js';
