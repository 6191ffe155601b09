import { Injectable } from '@nestjs/common';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkConfig } from '../doctor/config-check.js';
import { printDoctorReport, type DoctorCheck } from '../doctor/doctor-check.js';
import { UsageError } from '../errors/cli.errors.js';
import { readPackageInfo } from '../shell/package-info.js';
import { projectCheck } from './deploy-checks.js';
import {
  describePlatforms,
  resolvePlatformId,
  type DeployPlatform,
  type DeployRequest,
  type PlatformId,
} from './deploy-platform.interface.js';
import { CloudGuidePlatform } from './platforms/cloudguide.platform.js';
import { GithostPlatform } from './platforms/githost.platform.js';
import { ServerlessPlatform } from './platforms/serverless.platform.js';
import { VmhostPlatform } from './platforms/vmhost.platform.js';
import { PlatformClientService } from './platform-client.service.js';
import { checkVendoring, VendorToolkitService } from './vendor-toolkit.service.js';

/**
 * Picks the platform a `deploy` argument names (id or brand alias) and runs it, after making the
 * toolkit dependency resolvable on a build machine (see {@link VendorToolkitService}). An
 * unknown name is a usage error (exit 2) listing the choices.
 *
 * @example
 * await deployments.deploy('fly', { cwd, appName: 'my-bot' });
 */
@Injectable()
export class DeployService {
  private readonly platforms: ReadonlyMap<PlatformId, DeployPlatform>;

  constructor(
    vmhost: VmhostPlatform,
    githost: GithostPlatform,
    serverless: ServerlessPlatform,
    cloud: CloudGuidePlatform,
    private readonly vendoring: VendorToolkitService,
    private readonly clients: PlatformClientService,
  ) {
    this.platforms = new Map<PlatformId, DeployPlatform>(
      [vmhost, githost, serverless, cloud].map((p) => [p.id, p]),
    );
  }

  async deploy(platform: string, request: DeployRequest): Promise<void> {
    const target = this.platform(platform);
    if (target.shipsProject) await this.vendoring.prepare(request.cwd);
    await target.deploy(request);
  }

  /**
   * `toolkit deploy <platform> --check`: prints what the deployment would verify and generate
   * first, one line each as `toolkit doctor` does (or JSON), without running the client or
   * writing any file; status 1 when a check failed.
   */
  async check(platform: string, request: DeployRequest, json: boolean): Promise<void> {
    printDoctorReport(await this.checks(platform, request), json);
  }

  /**
   * The checks of {@link check}, in order: the client, the project, the platform's own (app name,
   * git, generated files, ...), the toolkit dependency, and the configuration.
   */
  async checks(platform: string, request: DeployRequest): Promise<DoctorCheck[]> {
    const target = this.platform(platform);
    const { cwd } = request;
    const toolkitName = readPackageInfo().name;
    const packageJson = join(cwd, 'package.json');
    const checks: DoctorCheck[] = [
      await this.clients.check(target.id),
      projectCheck({
        packageJsonText: existsSync(packageJson) ? readFileSync(packageJson, 'utf8') : undefined,
        toolkitName,
        hasAppEntry: ['app.ts', 'app.js'].some((file) => existsSync(join(cwd, file))),
      }),
      ...(await target.check(request)),
    ];
    const vendoring = checkVendoring(cwd, toolkitName);
    if (vendoring) checks.push(vendoring);
    checks.push(checkConfig(cwd, { ...process.env }).check);
    return checks;
  }

  private platform(name: string): DeployPlatform {
    const id = resolvePlatformId(name);
    const target = id && this.platforms.get(id);
    if (!target)
      throw new UsageError(`unknown platform "${name}"; choose one of ${describePlatforms()}`);
    return target;
  }
}
