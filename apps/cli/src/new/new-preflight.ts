import { isAbsolute, relative, resolve } from 'node:path';
import { CliError } from '../errors/cli.errors.js';
import { DirectoryExistsError } from './new.errors.js';
import { pathTaken } from './path-taken.js';
import { checkProjectName } from './project-name.js';

/** What `toolkit new` was asked for, as the command line parsed it. */
export interface NewPreflightRequest {
  readonly name: string;
  readonly template: string;
  readonly directory: string;
  readonly cwd: string;
}

/**
 * The first moment of `toolkit new`, before Nest and the template engine load: checks the name and
 * that the target folder is free, then prints `Creating NAME from the TEMPLATE template...`.
 * Returns the exit status to stop with (the error printed) or `undefined` to go on.
 *
 * @example
 * const stop = preflightNewProject({ name: 'my-bot', template: 'chatbot', directory: '.', cwd });
 */
export function preflightNewProject(
  request: NewPreflightRequest,
  out: NodeJS.WritableStream = process.stdout,
  err: NodeJS.WritableStream = process.stderr,
): number | undefined {
  try {
    const name = checkProjectName(request.name);
    const dir = resolve(request.cwd, request.directory, name);
    if (pathTaken(dir)) throw new DirectoryExistsError(displayPath(request.cwd, dir));
    out.write(`Creating ${name} from the ${request.template} template...\n`);
    return undefined;
  } catch (error) {
    if (!(error instanceof CliError)) throw error;
    err.write(`Error: ${error.message}\n`);
    if (error.hint) err.write(`${error.hint}\n`);
    return error.exitCode;
  }
}

/**
 * The path as the user would type it from `cwd`: relative when inside it.
 *
 * @example
 * displayPath('/home/ana', '/home/ana/bots/my-bot'); // 'bots/my-bot'
 */
export function displayPath(cwd: string, path: string): string {
  const rel = relative(cwd, path);
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel) ? rel : path;
}
