import { Injectable } from '@nestjs/common';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { FileWriterService } from '../../services/file-writer.service.js';
import { TerminalService } from '../../services/terminal.service.js';
import { generatedFileCheck, hasDefaultExport } from '../deploy-checks.js';
import { renderServerlessJson } from '../deploy-files.js';
import { printSecretsHelp, reportGeneratedFile } from '../deploy-messages.js';
import { findUrl, secretNames } from '../deployment-output.js';
import type { DoctorCheck } from '../../doctor/doctor-check.js';
import type { DeployPlatform, DeployRequest } from '../deploy-platform.interface.js';
import { PlatformClientService } from '../platform-client.service.js';
import { VERCEL } from '../platform-clients.js';

/** Name of the generated configuration file. */
export const SERVERLESS_CONFIG = 'serverless.json';

/** The file the serverless runtime builds: `app.js` when only it exists, else `app.ts`. */
function entryFile(cwd: string): string {
  return !existsSync(join(cwd, 'app.ts')) && existsSync(join(cwd, 'app.js')) ? 'app.js' : 'app.ts';
}

function noDefaultExport(entry: string): string {
  return (
    `${entry} has no default export. The serverless runtime calls the default export as a ` +
    `Node (req, res) handler`
  );
}

function addDefaultExport(entry: string): string {
  return `add "export default app.handler;" to ${entry}`;
}

/**
 * `toolkit deploy serverless` (alias `vercel`): writes `serverless.json` when absent and runs the
 * client's production deploy with it (`vercel deploy --prod --local-config serverless.json`).
 * The entry file must `export default app.handler`, a Node `(req, res)` handler.
 */
@Injectable()
export class ServerlessPlatform implements DeployPlatform {
  readonly id = 'serverless' as const;
  readonly shipsProject = true;

  constructor(
    private readonly clients: PlatformClientService,
    private readonly files: FileWriterService,
    private readonly terminal: TerminalService,
  ) {}

  async deploy(request: DeployRequest): Promise<void> {
    const { cwd, appName, region } = request;
    const vercel = this.clients.locate(VERCEL);
    const entry = entryFile(cwd);
    const outcome = this.files.writeIfAbsent(
      join(cwd, SERVERLESS_CONFIG),
      renderServerlessJson(entry),
    );
    reportGeneratedFile(this.terminal, SERVERLESS_CONFIG, outcome);
    if (!hasDefaultExport(this.files.read(join(cwd, entry)))) {
      this.terminal.warn(`${noDefaultExport(entry)}: ${addDefaultExport(entry)}.`);
    }

    if (appName) {
      await this.clients.run(
        vercel,
        ['link', '--yes', '--project', appName],
        cwd,
        'Linking the project failed',
      );
    }
    const result = await this.clients.run(
      vercel,
      [
        'deploy',
        '--prod',
        '--yes',
        '--local-config',
        SERVERLESS_CONFIG,
        ...(region ? ['--regions', region] : []),
      ],
      cwd,
      'The deployment failed',
      'Are you logged in? Run vercel login, then try again.',
    );
    const url = findUrl(result.stdout, '.vercel.app');
    this.terminal.success(url ? `Deployed: ${url}` : 'Deployed (the client printed no URL).');
    printSecretsHelp(
      this.terminal,
      secretNames(this.files.read(join(cwd, '.env'))),
      (name) => `vercel env add ${name} production`,
    );
  }

  check(request: DeployRequest): Promise<DoctorCheck[]> {
    const { cwd, appName } = request;
    const entry = entryFile(cwd);
    const checks: DoctorCheck[] = [];
    if (appName) {
      checks.push({ name: 'app name', status: 'ok', detail: `${appName} (--app-name: linked)` });
    }
    checks.push(
      generatedFileCheck(SERVERLESS_CONFIG, this.files.exists(join(cwd, SERVERLESS_CONFIG))),
      hasDefaultExport(this.files.read(join(cwd, entry)))
        ? { name: 'entry', status: 'ok', detail: `${entry} has a default export (the handler)` }
        : {
            name: 'entry',
            status: 'warn',
            detail: noDefaultExport(entry),
            fix: addDefaultExport(entry),
          },
    );
    return Promise.resolve(checks);
  }
}
