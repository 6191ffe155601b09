import { Command, CommandRunner, Option } from 'nest-commander';
import { DEPLOY_COMMAND, DEPLOY_OPTIONS } from '../command-manifest.js';
import { DeployService } from '../deploy/deploy.service.js';
import { optionMetadata } from './option-metadata.js';

/** Options of `toolkit deploy` after parsing. */
export interface DeployOptions {
  appName?: string;
  region?: string;
}

/**
 * `toolkit deploy <vmhost|githost|serverless|cloudguide> [-n|--app-name NAME] [-r|--region REGION]`
 * (aliases fly, heroku, vercel, aws).
 */
@Command(DEPLOY_COMMAND)
export class DeployCommand extends CommandRunner {
  constructor(private readonly deployments: DeployService) {
    super();
  }

  async run([platform]: string[], options: DeployOptions): Promise<void> {
    await this.deployments.deploy(platform, {
      cwd: process.cwd(),
      appName: options.appName,
      region: options.region,
    });
  }

  @Option(optionMetadata(DEPLOY_OPTIONS.appName))
  parseAppName(value: string): string {
    return DEPLOY_OPTIONS.appName.parse(value);
  }

  @Option(optionMetadata(DEPLOY_OPTIONS.region))
  parseRegion(value: string): string {
    return DEPLOY_OPTIONS.region.parse(value);
  }
}
