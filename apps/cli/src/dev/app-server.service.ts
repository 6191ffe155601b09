import { Injectable } from '@nestjs/common';
import { relative } from 'node:path';
import type { PlatformName } from '../../../../libs/framework/src/internal.js';
import { loadConfig, PLATFORM_PACKAGES } from '../../../../libs/framework/src/internal.js';
import { CliError, MissingToolError } from '../errors/cli.errors.js';
import { PackageLocatorService } from '../services/package-locator.service.js';
import { TerminalService, type Row } from '../services/terminal.service.js';
import { describeCandidates, locateAppFile, type AppSpec } from './app-spec.js';
import { AppSupervisorService } from './app-supervisor.service.js';
import { hostForUrl } from './host-url.js';
import { InProcessServerService } from './in-process-server.service.js';
import { describeLlm } from './llm-summary.js';
import { isPortFree } from './port-check.js';

/** What `toolkit dev` / `toolkit start` asked for. */
export interface ServeRequest {
  /** Project folder. */
  cwd: string;
  /** The `--app` value, parsed. */
  app: AppSpec;
  host: string;
  port: number;
  /** Restart on `*.ts` changes (dev). */
  reload: boolean;
  /** `dev` prints the full banner; `start` one line. */
  mode: 'dev' | 'start';
  /** Environment of the app process. @default process.env */
  env?: NodeJS.ProcessEnv;
}

/** The HTTP platform the framework serves with by default; it must be installed for the app to start. */
export const HTTP_PLATFORM_PACKAGE = PLATFORM_PACKAGES.express;

/**
 * The HTTP platform the project is configured for (`app.platform` in `toolkit.yaml`, or
 * `TOOLKIT_APP_PLATFORM`) and its Nest package, read as the app will read them. A platform
 * chosen in code (`new App({ platform })`) is checked by the app itself when it starts.
 *
 * @throws ConfigError when the configuration is invalid (the app would not start either)
 */
export function httpPlatform(
  cwd: string,
  env: NodeJS.ProcessEnv,
): { name: PlatformName; packageName: string } {
  // .env is layered onto a copy: the CLI's own environment stays as it was.
  const name = loadConfig({ cwd, env: { ...env } }).app.platform;
  return { name, packageName: PLATFORM_PACKAGES[name] };
}

/**
 * Checks a project can be served (app file, HTTP platform, configuration, free port), prints the
 * banner, then hands over to the {@link AppSupervisorService} (`dev`: a child process it restarts)
 * or the {@link InProcessServerService} (`start`). Resolves the CLI's exit code.
 *
 * @example
 * await server.serve({ cwd, app: parseAppSpec('app:app'), host: '127.0.0.1', port: 8000, reload: true, mode: 'dev' });
 */
@Injectable()
export class AppServerService {
  constructor(
    private readonly terminal: TerminalService,
    private readonly packages: PackageLocatorService,
    private readonly supervisor: AppSupervisorService,
    private readonly inProcess: InProcessServerService,
  ) {}

  async serve(request: ServeRequest): Promise<number> {
    const { cwd, app, host, port } = request;
    const env = request.env ?? process.env;
    const appFile = locateAppFile(cwd, app);
    if (!appFile) {
      throw new CliError(
        `Application file not found: no ${describeCandidates(cwd, app)} in ${cwd}`,
        {
          hint: 'Run this command in the project folder, or point to the app with --app <module>:<export>.',
        },
      );
    }
    const platform = httpPlatform(cwd, env);
    const platformPackage = platform.packageName;
    if (!this.packages.findThrough(platformPackage, 'toolkit', cwd)) {
      throw new MissingToolError(
        platformPackage,
        `npm install ${platformPackage}`,
        `The HTTP platform ${platformPackage} is not installed in this project, so the app cannot be served`,
      );
    }
    const llm = describeLlm(cwd, env);
    if (!(await isPortFree(host, port))) {
      throw new CliError(`Port ${port} is already in use on ${host}`, {
        hint: 'Stop the other server, or choose another port with --port.',
      });
    }

    const url = `http://${hostForUrl(host)}:${port}`;
    const spec = `${app.module}:${app.exportName} (${relative(cwd, appFile)})`;
    if (request.mode === 'dev') {
      const rows: Row[] = [
        ['URL', url],
        ['Host', host],
        ['Port', String(port)],
        ['App', spec],
        [
          'Reload',
          request.reload
            ? 'on (.ts files, toolkit.yaml, .env and prompts/; node_modules, .git and dist ignored)'
            : 'off',
        ],
        ['Server', `${platform.name} (${platformPackage}, app.platform)`],
        ['LLM', llm.line],
      ];
      this.terminal.heading(`toolkit dev server: ${url}`);
      this.terminal.table(rows);
    } else {
      this.terminal.info(
        `toolkit start: serving ${spec} on ${host}:${port} with ${platform.name} (LLM: ${llm.line})`,
      );
    }
    if (llm.warning) this.terminal.warn(llm.warning);
    if (request.mode === 'dev') this.terminal.info('Press Ctrl+C to stop.');

    const options = {
      cwd,
      appFile,
      exportName: app.exportName,
      host,
      port,
      reload: request.reload,
      env,
    };
    // `start` has nothing to restart: serving in this process loads Nest once, not twice.
    return request.mode === 'start'
      ? this.inProcess.serve(options)
      : this.supervisor.serve(options);
  }
}
