import type { DynamicModule } from '@nestjs/common';
import { PRELOADED_CONFIG } from '../toolkit.constants.js';
import type { ToolkitConfig } from './toolkit-config.interface.js';

/**
 * `toolkitModule` (what `ToolkitModule.forRoot()` returned) given `config` as its
 * `TOOLKIT_CONFIG`, so the application's configuration is loaded once: by its host, which needed
 * it before Nest started. Every module reading `TOOLKIT_CONFIG` (`RagModule` too) then shares
 * that one object.
 *
 * @example
 * const config = loadConfig({ cwd });
 * imports: [withPreloadedConfig(ToolkitModule.forRoot({ cwd }), config)]
 */
export function withPreloadedConfig(
  toolkitModule: DynamicModule,
  config: ToolkitConfig,
): DynamicModule {
  return {
    ...toolkitModule,
    providers: [
      ...(toolkitModule.providers ?? []),
      { provide: PRELOADED_CONFIG, useValue: config },
    ],
  };
}
