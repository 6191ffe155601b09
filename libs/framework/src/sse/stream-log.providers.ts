import type { Provider } from '@nestjs/common';
import { StreamLog } from '../../../providers/src/internal.js';
import type { ToolkitConfig } from '../config/toolkit-config.interface.js';
import { TOOLKIT_CONFIG } from '../toolkit.constants.js';
import { createStreamLog } from './stream-log.factory.js';

/**
 * The log of resumable streams chosen by the configuration (see `createStreamLog`);
 * `ResumableStreams` closes it at shutdown, after its producers wrote their last entry.
 */
export const streamLogProvider: Provider = {
  provide: StreamLog,
  useFactory: (config: ToolkitConfig) => createStreamLog(config),
  inject: [TOOLKIT_CONFIG],
};
