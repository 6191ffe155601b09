import { Command, CommandRunner, Option } from 'nest-commander';
import { DEPLOY_COMMAND, DEPLOY_OPTIONS } from '../command-manifest.js';
import { DeployService } from '../deploy/deploy.service.js';
import { optionMetadata } from './option-metadata.js';

/** Options of `toolkit deploy` after parsing. */
export interface DeployOptions {
  appName?: string;
  region?: string;
  check?: boolean;
  json?: boolean;
}

/**
 * `toolkit deploy <vmhost|githost|serverless|cloudguide> [-n|--app-name NAME] [-r|--region REGION]
 * [--check [--json]]` (aliases fly, heroku, vercel, aws). `--check` only reports what the
 * deployment would verify and generate.
 */
@Command(DEPLOY_COMMAND)
export class DeployCommand extends CommandRunner {
  constructor(private readonly deployments: DeployService) {
    super();
  }

  async run([platform]: string[], options: DeployOptions): Promise<void> {
    const request = { cwd: process.cwd(), appName: options.appName, region: options.region };
    if (options.check) {
      await this.deployments.check(platform, request, options.json ?? false);
      return;
    }
    await this.deployments.deploy(platform, request);
  }

  @Option(optionMetadata(DEPLOY_OPTIONS.appName))
  parseAppName(value: string): string {
    return DEPLOY_OPTIONS.appName.parse(value);
  }

  @Option(optionMetadata(DEPLOY_OPTIONS.region))
  parseRegion(value: string): string {
    return DEPLOY_OPTIONS.region.parse(value);
  }

  @Option(optionMetadata(DEPLOY_OPTIONS.check))
  parseCheck(): boolean {
    return true;
  }

  @Option(optionMetadata(DEPLOY_OPTIONS.json))
  parseJson(): boolean {
    return true;
  }
}
