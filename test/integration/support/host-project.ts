import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { REPO_ROOT } from '../../../apps/cli/test/support/cli-process.js';
import {
  npmInstall,
  type GeneratedProject,
} from '../../../apps/cli/test/support/generated-project.js';
import { packToolkit } from './toolkit-tarball.js';

/** The plain Nest application (JavaScript, as `tsc` would emit it) copied into the project. */
const APP_SOURCES = fileURLToPath(new URL('../host-nest-app/', import.meta.url));

/**
 * What an existing Nest application installs itself and toolkit must share with it (one copy
 * each): toolkit's required peers.
 */
export const SHARED_WITH_HOST = [
  '@nestjs/common',
  '@nestjs/core',
  '@nestjs/platform-express',
  'reflect-metadata',
  'rxjs',
];
/** toolkit's optional peer, which `toolkit/testing` needs. */
const HOST_DEV_DEPENDENCIES = ['@nestjs/testing'];

/**
 * Makes a Nest application in its own temp folder, with its own `package.json` listing the Nest
 * packages (at the ranges toolkit is developed with, so they come from the npm cache) and the
 * packed toolkit tarball, and installs it with `npm install --prefer-offline`. The app's
 * sources are in `src/`.
 */
export async function createHostProject(): Promise<GeneratedProject> {
  const dir = mkdtempSync(join(tmpdir(), 'toolkit-host-nest-'));
  const path = (...parts: string[]): string => join(dir, ...parts);
  const project: GeneratedProject = {
    dir,
    path,
    read: (...parts) => readFileSync(path(...parts), 'utf8'),
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
    output: '',
  };
  try {
    const tarball = await packToolkit(dir);
    const toolkit = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as {
      devDependencies: Record<string, string>;
    };
    const ranges = (names: string[]): Record<string, string> =>
      Object.fromEntries(names.map((name) => [name, toolkit.devDependencies[name]]));
    const manifest = {
      name: 'host-nest-app',
      version: '1.0.0',
      private: true,
      type: 'module',
      dependencies: { ...ranges(SHARED_WITH_HOST), toolkit: `file:${basename(tarball)}` },
      devDependencies: ranges(HOST_DEV_DEPENDENCIES),
    };
    writeFileSync(path('package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
    cpSync(APP_SOURCES, path('src'), { recursive: true });
    // A plain Nest app is not ours: its own packages may warn on this Node (file-type on Node 20).
    await npmInstall(project, { strict: false });
    return project;
  } catch (error) {
    project.cleanup();
    throw error;
  }
}
