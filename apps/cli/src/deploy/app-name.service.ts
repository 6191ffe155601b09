import { Injectable } from '@nestjs/common';
import { join } from 'node:path';
import type { DoctorCheck } from '../doctor/doctor-check.js';
import { CliError } from '../errors/cli.errors.js';
import { FileWriterService } from '../services/file-writer.service.js';
import { PromptService } from '../services/prompt.service.js';
import { appNameProblem, suggestAppName } from './app-name.js';

/**
 * Decides the app name of a deployment: `--app-name` when given; otherwise asks on a terminal
 * (offering the package name); without a terminal it fails asking for `--app-name`.
 *
 * @example
 * const name = await names.resolve(request.appName, request.cwd, 'vmhost');
 */
@Injectable()
export class AppNameService {
  constructor(
    private readonly prompts: PromptService,
    private readonly files: FileWriterService,
  ) {}

  async resolve(given: string | undefined, cwd: string, platform: string): Promise<string> {
    if (given) return given;
    if (!this.prompts.canPrompt) {
      throw new CliError(`An app name is needed to deploy to ${platform}`, {
        hint: `Pass it with --app-name NAME (stdin is not a terminal, so toolkit cannot ask).`,
      });
    }
    const suggestion = suggestAppName(this.packageName(cwd));
    const answer = await this.prompts.ask(
      `App name on ${platform}${suggestion ? ` [${suggestion}]` : ''}: `,
    );
    const name = answer || suggestion;
    if (!name)
      throw new CliError('An app name is needed', { hint: 'Pass it with --app-name NAME.' });
    const problem = appNameProblem(name);
    if (problem) throw new CliError(`"${name}" cannot be an app name`, { hint: problem });
    return name;
  }

  /**
   * What {@link resolve} would do, as one `deploy --check` line, without asking: ok with the name
   * given or when a terminal can answer; a failure naming `--app-name` otherwise.
   */
  check(given: string | undefined, cwd: string, platform: string): DoctorCheck {
    if (given) return { name: 'app name', status: 'ok', detail: `${given} (--app-name)` };
    const packageName = this.packageName(cwd);
    const suggestion = suggestAppName(packageName);
    const offered = suggestion
      ? `suggesting ${suggestion} from package.json`
      : packageName
        ? `package.json name "${packageName}" cannot be one`
        : 'package.json has no name to suggest';
    if (this.prompts.canPrompt) {
      return {
        name: 'app name',
        status: 'ok',
        detail: `not given: deploy asks for it (${offered})`,
      };
    }
    return {
      name: 'app name',
      status: 'fail',
      detail: `not given, and stdin is not a terminal to ask on (${offered})`,
      fix: `pass --app-name ${suggestion ?? 'NAME'} (the app name on ${platform})`,
    };
  }

  private packageName(cwd: string): string | undefined {
    const text = this.files.read(join(cwd, 'package.json'));
    if (!text) return undefined;
    try {
      return (JSON.parse(text) as { name?: string }).name;
    } catch {
      return undefined;
    }
  }
}
