import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { CLI_BIN, REPO_ROOT } from './cli-process.js';

/** Packages a temp project can get from the repository, as an npm install would provide them. */
export type LinkedPackage = 'toolkit' | 'jest' | 'vitepress' | '@nestjs';

/** A throw-away project folder. */
export interface TempProject {
  dir: string;
  path(...parts: string[]): string;
  write(file: string, content: string, mode?: number): void;
  cleanup(): void;
}

/**
 * Creates a project folder under the OS temp dir with `files`, and `node_modules` links to the
 * repository's packages: `toolkit` (this checkout, with its `.bin/toolkit`), jest, vitepress.
 */
export function createTempProject(
  files: Record<string, string>,
  link: readonly LinkedPackage[] = [],
): TempProject {
  const dir = mkdtempSync(join(tmpdir(), 'toolkit-cli-'));
  const path = (...parts: string[]): string => join(dir, ...parts);
  const write = (file: string, content: string, mode?: number): void => {
    mkdirSync(dirname(path(file)), { recursive: true });
    writeFileSync(path(file), content);
    if (mode !== undefined) chmodSync(path(file), mode);
  };
  for (const [file, content] of Object.entries(files)) write(file, content);
  for (const name of link) {
    mkdirSync(path('node_modules'), { recursive: true });
    const target = name === 'toolkit' ? REPO_ROOT : join(REPO_ROOT, 'node_modules', name);
    symlinkSync(target, path('node_modules', name), 'dir');
    // What npm's bin link does, without depending on the built file's executable bit.
    if (name === 'toolkit')
      write(
        'node_modules/.bin/toolkit',
        `#!/bin/sh\nexec "${process.execPath}" "${CLI_BIN}" "$@"\n`,
        0o755,
      );
  }
  return { dir, path, write, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** A one-file app answering `GET /health`, as the templates generate it. */
export const TINY_APP = `import { App } from 'toolkit';

export const app = new App({ title: 'tiny', version: '1.0.0' });
app.route('/health', { methods: ['GET'] }, () => ({ status: 'healthy' }));

export default app.handler;
`;
