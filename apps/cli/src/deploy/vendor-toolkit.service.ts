import { Injectable } from '@nestjs/common';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { CliError } from '../errors/cli.errors.js';
import { ProcessService } from '../services/process.service.js';
import { TerminalService } from '../services/terminal.service.js';
import { readPackageInfo } from '../shell/package-info.js';
import { planVendoring, VENDOR_DIR } from './vendor-toolkit.js';

/**
 * Makes a project's toolkit dependency resolvable on a build machine before a deployment: a
 * local `file:` folder (how `toolkit new` links a toolkit checkout) is packed with `npm pack`
 * into `vendor/<name>-<version>.tgz`, `package.json` points there, and `package-lock.json` is
 * brought up to date. A registry version range is left as it is.
 */
@Injectable()
export class VendorToolkitService {
  constructor(
    private readonly processes: ProcessService,
    private readonly terminal: TerminalService,
  ) {}

  async prepare(cwd: string, name: string = readPackageInfo().name): Promise<void> {
    const file = join(cwd, 'package.json');
    if (!existsSync(file)) return;
    const json = JSON.parse(readFileSync(file, 'utf8')) as {
      dependencies?: Record<string, string>;
    };
    const plan = planVendoring(json, name);
    if (plan.action === 'vendored') {
      this.terminal.info(`${name}: ${plan.spec} (packed into the project; commit ${VENDOR_DIR}/)`);
      return;
    }
    if (plan.action === 'keep') return;

    const source = resolve(cwd, plan.source);
    this.terminal.warn(
      `${name} is a local folder in package.json (${plan.spec}): a build machine has no such ` +
        `folder, so the deployment could not install it. Packing it into ${VENDOR_DIR}/.`,
    );
    const vendor = join(cwd, VENDOR_DIR);
    mkdirSync(vendor, { recursive: true });
    const packed = await this.processes.capture(
      'npm',
      ['pack', '--json', '--pack-destination', vendor],
      { cwd: source },
    );
    const filename = packed.code === 0 ? tarballName(packed.stdout) : undefined;
    if (filename === undefined) {
      throw new CliError(`npm pack of ${source} failed`, {
        hint: `${packed.stderr.trim().split('\n').slice(-3).join(' ')} (is ${source} built? npm run build there)`,
      });
    }
    const spec = `file:${VENDOR_DIR}/${filename}`;
    json.dependencies = { ...json.dependencies, [name]: spec };
    writeFileSync(file, `${JSON.stringify(json, null, 2)}\n`);
    if (existsSync(join(cwd, 'package-lock.json'))) {
      const locked = await this.processes.capture(
        'npm',
        ['install', '--package-lock-only', '--prefer-offline', '--no-audit', '--no-fund'],
        { cwd },
      );
      if (locked.code !== 0) {
        throw new CliError('updating package-lock.json failed', {
          hint: `${locked.stderr.trim().split('\n').slice(-3).join(' ')} (run npm install yourself)`,
        });
      }
    }
    this.terminal.warn(
      `package.json now depends on ${spec}. Commit ${VENDOR_DIR}/ with package.json and ` +
        `package-lock.json; run toolkit deploy again after updating ${name}.`,
    );
  }
}

/** The file `npm pack --json` reports it wrote. */
function tarballName(stdout: string): string | undefined {
  try {
    const [first] = JSON.parse(stdout.slice(stdout.indexOf('['))) as { filename?: unknown }[];
    return typeof first?.filename === 'string' ? first.filename : undefined;
  } catch {
    return undefined;
  }
}
