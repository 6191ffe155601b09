import { Injectable } from '@nestjs/common';
import { UsageError } from '../errors/cli.errors.js';
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
import { VendorToolkitService } from './vendor-toolkit.service.js';

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
  ) {
    this.platforms = new Map<PlatformId, DeployPlatform>(
      [vmhost, githost, serverless, cloud].map((p) => [p.id, p]),
    );
  }

  async deploy(platform: string, request: DeployRequest): Promise<void> {
    const id = resolvePlatformId(platform);
    const target = id && this.platforms.get(id);
    if (!target)
      throw new UsageError(`unknown platform "${platform}"; choose one of ${describePlatforms()}`);
    await this.vendoring.prepare(request.cwd);
    await target.deploy(request);
  }
}
