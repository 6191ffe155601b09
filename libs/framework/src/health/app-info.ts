import type { Provider } from '@nestjs/common';
import type { ToolkitConfig } from '../config/toolkit-config.interface.js';
import {
  TOOLKIT_MODULE_OPTIONS,
  type ToolkitModuleOptions,
} from '../module/toolkit.module-definition.js';
import { APP_INFO, TOOLKIT_CONFIG } from '../toolkit.constants.js';

/** The application's name and version, injectable with `@Inject(APP_INFO)`. */
export interface AppInfo {
  /** `App({ title })`, else `app.name` from the configuration. */
  name: string;
  /** `App({ version })`, else "0.0.0". */
  version: string;
}

export const appInfoProvider: Provider = {
  provide: APP_INFO,
  useFactory: (options: ToolkitModuleOptions, config: ToolkitConfig): AppInfo => ({
    name: options.title ?? config.app.name,
    version: options.version ?? '0.0.0',
  }),
  inject: [TOOLKIT_MODULE_OPTIONS, TOOLKIT_CONFIG],
};
