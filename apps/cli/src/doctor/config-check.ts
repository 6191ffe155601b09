import type { ToolkitConfig } from '../../../../libs/framework/src/index.js';
import { loadConfig } from '../../../../libs/framework/src/internal.js';
import type { DoctorCheck } from './doctor-check.js';

/** What {@link checkConfig} found: the check line, and the configuration when it is valid. */
export interface ConfigCheckResult {
  readonly check: DoctorCheck;
  readonly config?: ToolkitConfig;
}

/**
 * Loads `toolkit.yaml`, `.env` (layered onto `env`, which it changes) and `TOOLKIT_*` as the app
 * would, and reports whether they are valid, naming the file and key when not. Used by
 * `toolkit doctor` and `toolkit deploy --check`.
 *
 * @example
 * const { check, config } = checkConfig(process.cwd(), { ...process.env });
 */
export function checkConfig(cwd: string, env: NodeJS.ProcessEnv): ConfigCheckResult {
  try {
    const config = loadConfig({ cwd, env });
    return {
      config,
      check: { name: 'config', status: 'ok', detail: 'toolkit.yaml, .env and TOOLKIT_* are valid' },
    };
  } catch (error) {
    return {
      check: {
        name: 'config',
        status: 'fail',
        detail: error instanceof Error ? error.message : String(error),
        fix: 'correct the key named above in the file or variable named',
      },
    };
  }
}
