import type { Provider } from '@nestjs/common';
import { LLM } from '../../../providers/src/llm/llm.js';
import { MemoryStore } from '../../../providers/src/memory/memory-store.interface.js';
import type { ToolkitConfig } from '../config/toolkit-config.interface.js';
import { TOOLKIT_CONFIG } from '../toolkit.constants.js';

/**
 * Makes `LLM` injectable by its class, built from the resolved `llm.*` configuration
 * (`default_model: auto` → the first provider whose key is set, else the offline `echo`).
 * Tests override it with a `MockLLM` (`overrideProvider(LLM).useValue(mock)`).
 *
 * @example
 * @Controller()
 * class ChatController {
 *   constructor(private readonly llm: LLM) {}
 * }
 */
export const llmProvider: Provider = {
  provide: LLM,
  useFactory: (config: ToolkitConfig, store?: MemoryStore) =>
    LLM.fromConfig(config.llm, process.env, store),
  // The memory store keeps the per-user spend of `llm.budget`; optional for apps without it.
  inject: [TOOLKIT_CONFIG, { token: MemoryStore, optional: true }],
};
