import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { assertCliBuilt, REPO_ROOT } from '../../../apps/cli/test/support/cli-process.js';
import { userEnv } from '../../../apps/cli/test/support/generated-project.js';

/**
 * Packs the built toolkit (`npm pack` of this repository, after `npm run build`) into
 * `destination`, as `npm publish` would upload it, and returns the tarball's path.
 */
export async function packToolkit(destination: string): Promise<string> {
  assertCliBuilt();
  const { stdout } = await promisify(execFile)(
    'npm',
    ['pack', '--json', '--pack-destination', destination],
    { cwd: REPO_ROOT, env: userEnv(), timeout: 60_000, maxBuffer: 16 * 1024 * 1024 },
  );
  const [{ filename }] = JSON.parse(stdout) as Array<{ filename: string }>;
  return join(destination, filename);
}
