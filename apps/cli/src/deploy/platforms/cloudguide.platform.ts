import { Injectable } from '@nestjs/common';
import { join } from 'node:path';
import { FileWriterService } from '../../services/file-writer.service.js';
import { TerminalService } from '../../services/terminal.service.js';
import { renderCloudGuide } from '../cloud-guide.js';
import { hasDefaultExport } from '../deploy-checks.js';
import { secretNames } from '../deployment-output.js';
import type { DoctorCheck } from '../../doctor/doctor-check.js';
import type { DeployPlatform, DeployRequest } from '../deploy-platform.interface.js';

/**
 * `toolkit deploy cloudguide` (alias `aws`): prints the manual guide for API-gateway functions,
 * a container service and a managed application platform. Needs no client, deploys nothing and
 * writes nothing (no vendored toolkit, no change to `package.json`).
 */
@Injectable()
export class CloudGuidePlatform implements DeployPlatform {
  readonly id = 'cloudguide' as const;
  readonly shipsProject = false;

  constructor(
    private readonly files: FileWriterService,
    private readonly terminal: TerminalService,
  ) {}

  deploy(request: DeployRequest): Promise<void> {
    const secrets = secretNames(this.files.read(join(request.cwd, '.env')));
    const exportsHandler = ['app.ts', 'app.js'].some((entry) =>
      hasDefaultExport(this.files.read(join(request.cwd, entry))),
    );
    this.terminal.info(
      renderCloudGuide({
        appName: request.appName,
        region: request.region,
        secrets,
        exportsHandler,
      }),
    );
    return Promise.resolve();
  }

  /** The guide needs nothing beyond the project checks every platform shares. */
  check(): Promise<DoctorCheck[]> {
    return Promise.resolve([]);
  }
}
