import { CliError } from '../errors/cli.errors.js';

/**
 * The project name given to `toolkit new` cannot be used: it is not a valid npm package name or
 * not a single folder name. Exit status 1; the message says why, the hint what would work.
 *
 * @example
 * throw new InvalidProjectNameError('My App', ['name can only contain URL-friendly characters']);
 */
export class InvalidProjectNameError extends CliError {
  constructor(
    readonly projectName: string,
    readonly reasons: readonly string[],
  ) {
    super(`Invalid project name ${JSON.stringify(projectName)}: ${reasons.join('; ')}`, {
      hint: 'Use lower-case letters, digits, "-", "_" and ".", e.g. toolkit new my-app',
    });
  }
}

/**
 * The folder `toolkit new` would create is already there; nothing is overwritten. Exit status 1.
 *
 * @example
 * throw new DirectoryExistsError('/home/ana/my-app');
 */
export class DirectoryExistsError extends CliError {
  constructor(readonly path: string) {
    super(`Directory already exists: ${path}`, {
      hint: 'Choose another name, another parent folder with --directory, or remove the folder.',
    });
  }
}

/**
 * The toolkit installation is incomplete: its `templates/` folder or a package it should list is
 * missing. Exit status 1.
 *
 * @example
 * throw new TemplateUnavailableError('no templates/_shared in /opt/toolkit');
 */
export class TemplateUnavailableError extends CliError {
  constructor(detail: string) {
    super(`The project template is unavailable: ${detail}`, {
      hint: 'Reinstall toolkit (npm install toolkit), or rebuild it from its checkout.',
    });
  }
}
