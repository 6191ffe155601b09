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

/**
 * Picks the platform a `deploy` argument names (id or brand alias) and runs it. An unknown name
 * is a usage error (exit 2) listing the choices.
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
    await target.deploy(request);
  }
}
