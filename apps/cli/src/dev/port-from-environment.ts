import { DEFAULT_DEV_PORT } from '../cli.constants.js';
import { CliError } from '../errors/cli.errors.js';

/**
 * The port `toolkit dev` and `toolkit start` serve on when `--port` is not given: `PORT`, as
 * hosting platforms and many tools set it, else 8000.
 *
 * @throws CliError when `PORT` is set but is not a port number.
 */
export function portFromEnvironment(raw: string | undefined): number {
  if (raw === undefined || raw.trim() === '') return DEFAULT_DEV_PORT;
  const port = Number(raw);
  if (!/^\d+$/.test(raw.trim()) || port < 1 || port > 65535) {
    throw new CliError(`PORT must be an integer from 1 to 65535 (got "${raw}")`);
  }
  return port;
}
