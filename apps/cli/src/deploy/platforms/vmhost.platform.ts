import { Injectable } from '@nestjs/common';
import { join } from 'node:path';
import { FileWriterService } from '../../services/file-writer.service.js';
import { TerminalService } from '../../services/terminal.service.js';
import { AppNameService } from '../app-name.service.js';
import { generatedFileCheck, hasStartScript, parsePackageJson } from '../deploy-checks.js';
import { renderVmhostToml } from '../deploy-files.js';
import { printSecretsHelp, reportGeneratedFile } from '../deploy-messages.js';
import { findUrl, secretNames } from '../deployment-output.js';
import type { DoctorCheck } from '../../doctor/doctor-check.js';
import type { DeployPlatform, DeployRequest } from '../deploy-platform.interface.js';
import { PlatformClientService } from '../platform-client.service.js';
import { FLYCTL } from '../platform-clients.js';

/** Name of the generated configuration file. */
export const VMHOST_CONFIG = 'vmhost.toml';

const START_WARNING = 'package.json has no "start" script; the buildpack runs npm start';
const START_FIX = 'add "start": "toolkit start" to its scripts';

/**
 * `toolkit deploy vmhost` (alias `fly`): writes `vmhost.toml` when absent, runs
 * `flyctl deploy --config vmhost.toml --app <name>`, prints the URL and the secrets commands.
 */
@Injectable()
export class VmhostPlatform implements DeployPlatform {
  readonly id = 'vmhost' as const;
  readonly shipsProject = true;

  constructor(
    private readonly clients: PlatformClientService,
    private readonly names: AppNameService,
    private readonly files: FileWriterService,
    private readonly terminal: TerminalService,
  ) {}

  async deploy(request: DeployRequest): Promise<void> {
    const { cwd, region } = request;
    const flyctl = this.clients.locate(FLYCTL);
    const appName = await this.names.resolve(request.appName, cwd, 'vmhost');
    const outcome = this.files.writeIfAbsent(
      join(cwd, VMHOST_CONFIG),
      renderVmhostToml({ appName, region }),
    );
    reportGeneratedFile(this.terminal, VMHOST_CONFIG, outcome);
    if (outcome === 'kept' && region) {
      this.terminal.warn(
        `--region is not applied to an existing ${VMHOST_CONFIG}; edit its primary_region.`,
      );
    }
    this.warnWithoutStartScript(cwd);

    const result = await this.clients.run(
      flyctl,
      ['deploy', '--config', VMHOST_CONFIG, '--app', appName],
      cwd,
      'The deployment failed',
      `If the app does not exist yet, create it first: flyctl apps create ${appName}`,
    );
    const url =
      findUrl(`${result.stdout}\n${result.stderr}`, '.fly.dev') ?? `https://${appName}.fly.dev`;
    this.terminal.success(`Deployed ${appName}: ${url}`);
    printSecretsHelp(
      this.terminal,
      secretNames(this.files.read(join(cwd, '.env'))),
      (name) => `flyctl secrets set ${name}=<value> --app ${appName}`,
    );
  }

  check(request: DeployRequest): Promise<DoctorCheck[]> {
    const { cwd, region } = request;
    const exists = this.files.exists(join(cwd, VMHOST_CONFIG));
    const checks: DoctorCheck[] = [
      this.names.check(request.appName, cwd, 'vmhost'),
      generatedFileCheck(VMHOST_CONFIG, exists),
    ];
    if (exists && region) {
      checks.push({
        name: 'region',
        status: 'warn',
        detail: `--region ${region} is not applied to the existing ${VMHOST_CONFIG}`,
        fix: `edit its primary_region`,
      });
    }
    checks.push(
      this.hasStartScript(cwd)
        ? { name: 'start', status: 'ok', detail: 'package.json has a start script (npm start)' }
        : { name: 'start', status: 'warn', detail: START_WARNING, fix: START_FIX },
    );
    return Promise.resolve(checks);
  }

  /** The buildpack starts the app with `npm start`: say so when package.json has no start script. */
  private warnWithoutStartScript(cwd: string): void {
    if (!this.hasStartScript(cwd))
      this.terminal.warn(`${START_WARNING}. Add "start": "toolkit start".`);
  }

  private hasStartScript(cwd: string): boolean {
    return hasStartScript(parsePackageJson(this.files.read(join(cwd, 'package.json'))));
  }
}
