import type { Provider } from '@nestjs/common';
import { MemoryStore } from '../../../providers/src/index.js';
import { LLM, llmOptionsFromSettings } from '../../../providers/src/internal.js';
import { environmentOf } from '../config/config-environment.js';
import type { ToolkitConfig } from '../config/toolkit-config.interface.js';
import { recordRequestUsage } from '../logging/request-context.js';
import { TOOLKIT_CONFIG } from '../toolkit.constants.js';

/**
 * Makes `LLM` injectable by its class, built from the resolved `llm.*` configuration
 * (`default_model: auto` → the first provider whose key is set, else the offline `echo`), with
 * the API keys and base URLs of the environment that configuration was loaded from
 * (`environmentOf`: the variables plus the project's `.env`). Its calls' usage goes to the
 * access log line of the request they serve (`recordRequestUsage`).
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
  useFactory: (config: ToolkitConfig, store?: MemoryStore) => {
    const env = environmentOf(config);
    const { model, options } = llmOptionsFromSettings(config.llm, env, store);
    return new LLM(model, { ...options, onUsage: recordRequestUsage });
  },
  // The memory store keeps the per-user spend of `llm.budget`; optional for apps without it.
  inject: [TOOLKIT_CONFIG, { token: MemoryStore, optional: true }],
};
