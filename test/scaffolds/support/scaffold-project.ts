import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { GeneratedProject } from '../../../apps/cli/test/support/generated-project.js';
import { runWatched, type WatchedResult } from './watched-run.js';

const SCAFFOLDS = fileURLToPath(new URL('../', import.meta.url));

/**
 * npm's options for every install: no audit or funding lookups, the cache first, and one
 * `http fetch` line per registry request, so a stalled install shows as silence.
 */
const NPM_INSTALL_OPTIONS = ['--no-audit', '--no-fund', '--prefer-offline', '--loglevel=http'];

/** `from './x'` → `from './x.js'`: what `nodenext` needs of an ES module's relative imports. */
export function withJsExtensions(source: string): string {
  return source.replace(/(from\s+')(\.{1,2}\/[^']+?)(?<!\.js)'/g, "$1$2.js'");
}

/**
 * A copy of one fixture (the app as the Nest CLI generated it) in its own temp folder; a
 * {@link GeneratedProject}, so the CLI suite's helpers (`installedCopies`) apply to it.
 */
export class ScaffoldProject implements GeneratedProject {
  readonly dir: string;
  readonly output = '';

  constructor(readonly fixture: string) {
    this.dir = mkdtempSync(join(tmpdir(), `toolkit-scaffold-${fixture}-`));
    cpSync(join(SCAFFOLDS, 'fixtures', fixture), this.dir, { recursive: true });
  }

  path(...parts: string[]): string {
    return join(this.dir, ...parts);
  }

  read(...parts: string[]): string {
    return readFileSync(this.path(...parts), 'utf8');
  }

  /**
   * Copies the files of each overlay folder over the app's, in order. In an ES module app
   * (`"type": "module"`), relative imports get the `.js` extension its own files use.
   */
  overlay(names: readonly string[]): void {
    const esm = (JSON.parse(this.read('package.json')) as { type?: string }).type === 'module';
    for (const name of names) {
      const from = join(SCAFFOLDS, 'overlays', name);
      for (const entry of readdirSync(from, { recursive: true, withFileTypes: true })) {
        if (!entry.isFile()) continue;
        const source = join(entry.parentPath, entry.name);
        const target = this.path(relative(from, source));
        mkdirSync(dirname(target), { recursive: true });
        cpSync(source, target);
        if (esm && target.endsWith('.ts')) {
          writeFileSync(target, withJsExtensions(readFileSync(target, 'utf8')));
        }
      }
    }
  }

  /** `npm install|uninstall [packages...]` with {@link NPM_INSTALL_OPTIONS}. */
  npmPackages(command: string, ...packages: string[]): Promise<WatchedResult> {
    return runWatched('npm', [command, ...NPM_INSTALL_OPTIONS, ...packages], { cwd: this.dir });
  }

  /** `npm run <script>`, as the app's README says (`npm test` is `npm run test`). */
  npmRun(script: string): Promise<WatchedResult> {
    return runWatched('npm', ['run', script], { cwd: this.dir });
  }

  /** Keeps the built app as it is now (`dist` → `as`), to start it again later. */
  keepBuild(as: string): void {
    cpSync(this.path('dist'), this.path(as), { recursive: true });
  }

  cleanup(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}
