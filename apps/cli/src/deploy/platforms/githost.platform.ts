import { Injectable } from '@nestjs/common';
import { join } from 'node:path';
import { CliError } from '../../errors/cli.errors.js';
import { FileWriterService } from '../../services/file-writer.service.js';
import { ProcessService } from '../../services/process.service.js';
import { TerminalService } from '../../services/terminal.service.js';
import { AppNameService } from '../app-name.service.js';
import { generatedFileCheck } from '../deploy-checks.js';
import { renderProcfile } from '../deploy-files.js';
import { printSecretsHelp, reportGeneratedFile } from '../deploy-messages.js';
import { findUrlOn, secretNames } from '../deployment-output.js';
import type { DoctorCheck } from '../../doctor/doctor-check.js';
import type { DeployPlatform, DeployRequest } from '../deploy-platform.interface.js';
import { PlatformClientService } from '../platform-client.service.js';
import { HEROKU } from '../platform-clients.js';

/** Name of the generated process file. */
export const PROCFILE = 'Procfile';
/** The git remote `heroku create` adds. */
export const GITHOST_REMOTE = 'heroku';

const NOT_A_REPOSITORY = 'githost deploys with git push, but this folder is not a git repository';
const CREATE_REPOSITORY = 'git init && git add -A && git commit -m "Initial commit"';

/**
 * `toolkit deploy githost` (alias `heroku`): needs a git repository; writes `Procfile` when
 * absent, creates the app, sets the Node.js buildpack, and prints the `git push` to deploy.
 */
@Injectable()
export class GithostPlatform implements DeployPlatform {
  readonly id = 'githost' as const;
  readonly shipsProject = true;

  constructor(
    private readonly clients: PlatformClientService,
    private readonly processes: ProcessService,
    private readonly names: AppNameService,
    private readonly files: FileWriterService,
    private readonly terminal: TerminalService,
  ) {}

  async deploy(request: DeployRequest): Promise<void> {
    const { cwd, region } = request;
    const heroku = this.clients.locate(HEROKU);
    await this.requireGitRepository(cwd);
    const appName = await this.names.resolve(request.appName, cwd, 'githost');
    reportGeneratedFile(
      this.terminal,
      PROCFILE,
      this.files.writeIfAbsent(join(cwd, PROCFILE), renderProcfile()),
    );

    const created = await this.clients.run(
      heroku,
      ['create', appName, ...(region ? ['--region', region] : [])],
      cwd,
      'Creating the app failed',
      'Is the name taken, or are you logged out? Try heroku login, or another --app-name.',
    );
    await this.clients.run(
      heroku,
      ['buildpacks:set', 'heroku/nodejs', '--app', appName],
      cwd,
      'Setting the Node.js buildpack failed',
    );

    const output = `${created.stdout}\n${created.stderr}`;
    const gitUrl = findUrlOn(output, 'git.heroku.com') ?? `https://git.heroku.com/${appName}.git`;
    const webUrl = findUrlOn(output, '.herokuapp.com') ?? `https://${appName}.herokuapp.com/`;
    const remote = await this.processes.capture('git', ['remote', 'get-url', GITHOST_REMOTE], {
      cwd,
    });
    this.terminal.success(`Created ${appName}: ${webUrl}`);
    this.terminal.info('Deploy by pushing the main branch to the app:');
    if (remote.code !== 0) this.terminal.command(`git remote add ${GITHOST_REMOTE} ${gitUrl}`);
    this.terminal.command(`git push ${GITHOST_REMOTE} main`);
    this.terminal.info(
      `(git remote "${GITHOST_REMOTE}": ${gitUrl}; from another branch: git push ${GITHOST_REMOTE} HEAD:main)`,
    );
    printSecretsHelp(
      this.terminal,
      secretNames(this.files.read(join(cwd, '.env'))),
      (name) => `heroku config:set ${name}=<value> --app ${appName}`,
    );
  }

  async check(request: DeployRequest): Promise<DoctorCheck[]> {
    const { cwd } = request;
    const git: DoctorCheck = (await this.isGitRepository(cwd))
      ? { name: 'git', status: 'ok', detail: 'a git repository (deploy is a git push)' }
      : { name: 'git', status: 'fail', detail: NOT_A_REPOSITORY, fix: CREATE_REPOSITORY };
    return [
      git,
      this.names.check(request.appName, cwd, 'githost'),
      generatedFileCheck(PROCFILE, this.files.exists(join(cwd, PROCFILE))),
    ];
  }

  private async requireGitRepository(cwd: string): Promise<void> {
    if (!(await this.isGitRepository(cwd))) {
      throw new CliError(NOT_A_REPOSITORY, { hint: `Create one first: ${CREATE_REPOSITORY}` });
    }
  }

  private async isGitRepository(cwd: string): Promise<boolean> {
    const result = await this.processes.capture('git', ['rev-parse', '--is-inside-work-tree'], {
      cwd,
    });
    return result.code === 0 && result.stdout.trim() === 'true';
  }
}
