import { Command, CommandRunner, Option } from 'nest-commander';
import { DEPLOY_COMMAND } from '../command-manifest.js';
import { parseAppName } from '../deploy/app-name.js';
import { DeployService } from '../deploy/deploy.service.js';
import { parseWord } from './option-parsers.js';

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

  @Option({
    flags: '-n, --app-name <name>',
    description: 'app name on the platform (asked for when missing)',
  })
  parseAppName(value: string): string {
    return parseAppName(value);
  }

  @Option({
    flags: '-r, --region <region>',
    description: 'region to deploy to, e.g. ams or eu-west-1',
  })
  parseRegion(value: string): string {
    return parseWord(value);
  }
}
