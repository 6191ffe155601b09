import type { Provider } from '@nestjs/common';
import { createMemoryStore, MemoryStore } from '../../../providers/src/index.js';
import type { ToolkitConfig } from '../config/toolkit-config.interface.js';
import { TOOLKIT_CONFIG } from '../toolkit.constants.js';
import { MemoryService } from './memory.service.js';

/** The memory backend chosen by `memory.backend`, and the service on top of it. */
export const memoryProviders: Provider[] = [
  {
    provide: MemoryStore,
    useFactory: (config: ToolkitConfig) => createMemoryStore(config.memory),
    inject: [TOOLKIT_CONFIG],
  },
  MemoryService,
];
