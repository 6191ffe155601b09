import { Module } from '@nestjs/common';
import { CliSharedModule } from '../cli-shared.module.js';
import { DeployCommand } from '../commands/deploy.command.js';
import { AppNameService } from '../deploy/app-name.service.js';
import { DeployService } from '../deploy/deploy.service.js';
import { PlatformClientService } from '../deploy/platform-client.service.js';
import { CloudGuidePlatform } from '../deploy/platforms/cloudguide.platform.js';
import { GithostPlatform } from '../deploy/platforms/githost.platform.js';
import { ServerlessPlatform } from '../deploy/platforms/serverless.platform.js';
import { VmhostPlatform } from '../deploy/platforms/vmhost.platform.js';
import { VendorToolkitService } from '../deploy/vendor-toolkit.service.js';

/** `toolkit deploy` with every platform and the services they share. */
@Module({
  imports: [CliSharedModule],
  providers: [
    DeployCommand,
    DeployService,
    AppNameService,
    PlatformClientService,
    VmhostPlatform,
    GithostPlatform,
    ServerlessPlatform,
    CloudGuidePlatform,
    VendorToolkitService,
  ],
})
export class DeployCommandModule {}
