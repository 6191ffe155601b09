import { Injectable } from '@nestjs/common';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { DoctorCheck } from '../doctor/doctor-check.js';
import { CliError } from '../errors/cli.errors.js';
import { ProcessService } from '../services/process.service.js';
import { TerminalService } from '../services/terminal.service.js';
import { readPackageInfo } from '../shell/package-info.js';
import { parsePackageJson } from './deploy-checks.js';
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
    const json = parsePackageJson(readFileSync(file, 'utf8'));
    if (!json) {
      throw new CliError('package.json is not a valid JSON object', {
        hint: 'Correct its JSON syntax (toolkit deploy --check lists what deploy needs).',
      });
    }
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

/**
 * What {@link VendorToolkitService.prepare} would do with a project's toolkit dependency, as one
 * `deploy --check` line, without packing or writing: a registry range or a packed copy is ok; a
 * local folder is a warning (deploy packs it into `vendor/`), or a failure when the folder or the
 * packed file is missing. `undefined` when the project does not depend on toolkit.
 *
 * @example
 * checkVendoring('/work/my-bot'); // { name: 'toolkit', status: 'ok', detail: 'toolkit ^0.1.0 ...' }
 */
export function checkVendoring(
  cwd: string,
  name: string = readPackageInfo().name,
): DoctorCheck | undefined {
  const file = join(cwd, 'package.json');
  const json = parsePackageJson(existsSync(file) ? readFileSync(file, 'utf8') : undefined);
  if (!json) return undefined;
  const plan = planVendoring(json, name);
  if (plan.action === 'keep') {
    return plan.spec === undefined
      ? undefined
      : {
          name: 'toolkit',
          status: 'ok',
          detail: `${name} ${plan.spec}: the build machine installs it as it is`,
        };
  }
  if (plan.action === 'vendored') {
    const packed = join(cwd, plan.spec.slice('file:'.length));
    return existsSync(packed)
      ? { name: 'toolkit', status: 'ok', detail: `${name} ${plan.spec} (packed into the project)` }
      : {
          name: 'toolkit',
          status: 'fail',
          detail: `${name} ${plan.spec} is missing`,
          fix: `point package.json at a toolkit folder again (file:<path>) and run toolkit deploy, or install ${name} from the registry`,
        };
  }
  const source = resolve(cwd, plan.source);
  if (!existsSync(join(source, 'package.json'))) {
    return {
      name: 'toolkit',
      status: 'fail',
      detail: `${name} ${plan.spec} is a local folder without a package.json, so deploy cannot pack it`,
      fix: `point the dependency at a toolkit checkout (file:<path>) or a registry version`,
    };
  }
  return {
    name: 'toolkit',
    status: 'warn',
    detail: `${name} ${plan.spec} is a local folder: deploy packs it into ${VENDOR_DIR}/ and points package.json there`,
    fix: `commit ${VENDOR_DIR}/, package.json and package-lock.json after deploying`,
  };
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
