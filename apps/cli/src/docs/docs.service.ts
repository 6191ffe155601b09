import { Injectable } from '@nestjs/common';
import { existsSync, readFileSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import { CliError, MissingToolError, SilentExitError } from '../errors/cli.errors.js';
import { FileWriterService } from '../services/file-writer.service.js';
import { PackageLocatorService } from '../services/package-locator.service.js';
import { ProcessService } from '../services/process.service.js';
import { TerminalService } from '../services/terminal.service.js';
import {
  PRIVATE_DOCUMENTS_DIR,
  VITEPRESS_CONFIG_FILES,
  renderDocsIndex,
  renderVitePressConfig,
} from './docs-scaffold.js';

/** Source folder of the docs site. */
export const DOCS_DIR = 'docs';
/** Folder the static site is built into. */
export const SITE_DIR = 'site';

/**
 * `toolkit docs` with VitePress, the standard Vite-based generator for TypeScript projects
 * (Markdown in, static HTML out, hot reload while serving). VitePress comes from the project.
 *
 * @example
 * await docs.build(process.cwd()); // writes site/index.html
 */
@Injectable()
export class DocsService {
  constructor(
    private readonly packages: PackageLocatorService,
    private readonly processes: ProcessService,
    private readonly files: FileWriterService,
    private readonly terminal: TerminalService,
  ) {}

  /** Builds the static site into `site/`; a failed build is an error (exit 1). */
  async build(cwd: string): Promise<void> {
    const bin = this.prepare(cwd);
    const outDir = join(cwd, SITE_DIR);
    const result = await this.processes.runAttached(
      process.execPath,
      [bin, 'build', DOCS_DIR, '--outDir', outDir],
      { cwd, stdin: 'ignore' },
    );
    if (result.interrupted) throw new SilentExitError(130);
    if (result.code !== 0 || !existsSync(join(outDir, 'index.html'))) {
      throw new CliError(
        `The docs build failed (vitepress exited with ${result.code ?? result.signal})`,
        {
          hint: 'Fix the error reported above, then run toolkit docs --build again.',
        },
      );
    }
    this.terminal.success(`Built the docs site in ${relative(cwd, outDir)}/ (${outDir})`);
  }

  /** Serves the docs with hot reload on `port` until interrupted (then exits 0). */
  async serve(cwd: string, port: number): Promise<void> {
    const bin = this.prepare(cwd);
    this.terminal.info(
      `Serving the docs at http://localhost:${port} with hot reload. Press Ctrl+C to stop.`,
    );
    // stdin is not passed on: VitePress would take over the terminal's keys (and Ctrl+C).
    const result = await this.processes.runAttached(
      process.execPath,
      [bin, 'dev', DOCS_DIR, '--port', String(port), '--strictPort'],
      { cwd, stdin: 'ignore' },
    );
    if (result.interrupted) return;
    throw new CliError(
      `The docs server stopped (vitepress exited with ${result.code ?? result.signal})`,
      {
        hint: `Is port ${port} free? Choose another one with --port.`,
      },
    );
  }

  /** Checks VitePress is installed, creates the basic docs structure, returns the VitePress bin. */
  private prepare(cwd: string): string {
    const bin = this.packages.find('vitepress', cwd)?.bins.vitepress;
    if (!bin) {
      throw new MissingToolError(
        'vitepress',
        'npm install --save-dev vitepress',
        'The docs generator VitePress was not found in this project',
      );
    }
    const title = projectTitle(cwd);
    const docs = join(cwd, DOCS_DIR);
    if (this.files.writeIfAbsent(join(docs, 'index.md'), renderDocsIndex(title)) === 'created') {
      this.terminal.info(`Created ${DOCS_DIR}/index.md`);
    }
    const existing = VITEPRESS_CONFIG_FILES.map((name) => join(docs, '.vitepress', name)).find(
      (f) => existsSync(f),
    );
    if (!existing) {
      this.files.writeIfAbsent(
        join(docs, '.vitepress', 'config.mts'),
        renderVitePressConfig(title),
      );
      this.terminal.info(`Created ${DOCS_DIR}/.vitepress/config.mts`);
    } else if (
      existsSync(join(docs, PRIVATE_DOCUMENTS_DIR)) &&
      !(this.files.read(existing) ?? '').includes(PRIVATE_DOCUMENTS_DIR)
    ) {
      this.terminal.warn(
        `${relative(cwd, existing)} does not exclude ${DOCS_DIR}/${PRIVATE_DOCUMENTS_DIR}/: ` +
          `add srcExclude: ['${PRIVATE_DOCUMENTS_DIR}/**'] so uploaded documents are not published.`,
      );
    }
    return bin;
  }
}

/** The project's package name, or its folder name. */
function projectTitle(cwd: string): string {
  try {
    const json = JSON.parse(readFileSync(join(cwd, 'package.json'), 'utf8')) as { name?: string };
    if (json.name) return json.name;
  } catch {
    // no package.json: use the folder name
  }
  return basename(cwd);
}
