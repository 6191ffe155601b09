import { DEFAULT_START_HOST } from '../cli.constants.js';
import { parseAppSpec } from '../dev/app-spec.js';
import type { ServeRequest } from '../dev/app-server.service.js';
import { portFromEnvironment } from '../dev/port-from-environment.js';

/** Options of `toolkit start` after parsing; host and port fall back to HOST and PORT. */
export interface StartOptions {
  port?: number;
  host?: string;
  app: string;
}

/**
 * What `toolkit start` serves: the options given, else `HOST`/`PORT`, else `0.0.0.0:8000`, with
 * `NODE_ENV=production` unless the environment sets it.
 *
 * @throws CliError when `PORT` is not a port number.
 */
export function startRequest(
  options: StartOptions,
  cwd: string,
  env: NodeJS.ProcessEnv,
): ServeRequest {
  return {
    cwd,
    app: parseAppSpec(options.app),
    host: options.host ?? (env.HOST?.trim() || DEFAULT_START_HOST),
    port: options.port ?? portFromEnvironment(env.PORT),
    reload: false,
    mode: 'start',
    env: { NODE_ENV: 'production', ...env },
  };
}
