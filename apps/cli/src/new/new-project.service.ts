import { Injectable } from '@nestjs/common';
import { join, resolve } from 'node:path';
import { TerminalService } from '../services/terminal.service.js';
import { readPackageInfo } from '../shell/package-info.js';
import { DirectoryExistsError } from './new.errors.js';
import { displayPath } from './new-preflight.js';
import { projectDependencies } from './project-dependencies.js';
import { checkProjectName } from './project-name.js';
import { DEFAULT_HTTP_PLATFORM, type HttpPlatformChoice } from './http-platform-choice.js';
import type { ProjectTemplate } from './project-templates.js';
import { pathTaken } from './path-taken.js';
import { ProjectWriterService } from './project-writer.service.js';
import { TemplateRendererService } from './template-renderer.service.js';
import { templateVariables } from './template-variables.js';
import { readToolkitPackage } from './toolkit-package.js';

/** What `toolkit new` was asked to create. */
export interface NewProjectRequest {
  /** Project name: the folder created and the npm package name. */
  name: string;
  /** Template to start from. */
  template: ProjectTemplate;
  /** Folder to create the project in, relative to `cwd`. @default '.' */
  directory?: string;
  /** HTTP platform the project runs on (`app.platform`). @default 'express' */
  platform?: HttpPlatformChoice;
  /** Working folder the paths are relative to. */
  cwd: string;
  /** Root of the toolkit package providing templates and versions. @default the running toolkit */
  toolkitRoot?: string;
}

/** A project {@link NewProjectService.create} made. */
export interface CreatedProject {
  /** Absolute path of the project folder. */
  dir: string;
  /** The files written, `/`-separated, sorted. */
  files: string[];
}

/** `.npmrc` of a project whose toolkit dependency is a `file:` folder. */
export const LOCAL_TOOLKIT_NPMRC = `# toolkit is installed from a local folder (file:). Pack it and install it like a registry
# package, so its dependencies land in this project's node_modules with ONE copy of @nestjs/*.
install-links=true
`;

/**
 * `toolkit new`: checks the name and the target folder, renders the template, writes the project
 * atomically, and prints what was created and what to run next.
 *
 * @example
 * await projects.create({ name: 'my-bot', template: 'chatbot', cwd: process.cwd() });
 */
@Injectable()
export class NewProjectService {
  constructor(
    private readonly renderer: TemplateRendererService,
    private readonly writer: ProjectWriterService,
    private readonly terminal: TerminalService,
  ) {}

  async create(request: NewProjectRequest): Promise<CreatedProject> {
    const name = checkProjectName(request.name);
    const dir = resolve(request.cwd, request.directory ?? '.', name);
    if (pathTaken(dir)) throw new DirectoryExistsError(displayPath(request.cwd, dir));

    const toolkit = readToolkitPackage(request.toolkitRoot ?? readPackageInfo().root);
    const platform = request.platform ?? DEFAULT_HTTP_PLATFORM;
    const dependencies = projectDependencies(toolkit, request.template, platform);
    const variables = templateVariables(name, request.template, dependencies, toolkit.name, {
      platform,
    });
    const files = await this.renderer.render(
      join(toolkit.root, 'templates'),
      request.template,
      variables,
    );
    const ownNpmrc = files.some((file) => file.path === '.npmrc');
    if (dependencies.dependencies[toolkit.name].startsWith('file:') && !ownNpmrc) {
      files.push({ path: '.npmrc', content: Buffer.from(LOCAL_TOOLKIT_NPMRC), mode: 0o644 });
    }
    files.sort((a, b) => a.path.localeCompare(b.path));

    this.writer.write(dir, files);
    const created = { dir, files: files.map((file) => file.path) };
    this.printSummary(request, created);
    return created;
  }

  private printSummary(request: NewProjectRequest, project: CreatedProject): void {
    const on = request.platform === 'fastify' ? ' (on Fastify)' : '';
    this.terminal.success(
      `Created ${request.name} from the ${request.template} template${on} in ${project.dir}`,
    );
    for (const file of project.files) this.terminal.info(`  ${file}`);
    this.terminal.info();
    this.terminal.heading('Next steps:');
    this.terminal.command(`cd ${shellQuote(displayPath(request.cwd, project.dir))}`);
    this.terminal.command('npm install');
    this.terminal.command('npm run dev');
    this.terminal.command('npm test');
    this.terminal.info();
    this.terminal.info(TEMPLATE_TIPS[request.template]);
    this.terminal.info(
      'Without a key in .env the app answers with the offline echo model; README.md says how to add one.',
    );
    const nodeMajor = Number(process.versions.node.split('.')[0]);
    if (request.platform === 'fastify' && nodeMajor < 22) {
      this.terminal.warn(
        `Fastify needs Node 22 or later for npm to install it without a warning (its cookie@2 declares node >= 22); it runs on Node ${process.versions.node}, which is past its end of life: use Node 22 or 24.`,
      );
    }
  }
}

/** One line per template after the next steps. */
const TEMPLATE_TIPS: Readonly<Record<ProjectTemplate, string>> = {
  chatbot: '`npm run dev` serves the chat page at http://127.0.0.1:8000.',
  rag: 'Put documents in docs/documents/ (indexed at start-up) or POST them to /upload.',
  agent:
    '`npm run dev` serves the chat page at http://127.0.0.1:8000; offline, "/tool calculator {"expression": "6*7"}" runs a tool.',
  api: 'A random API key was generated into .env (API_KEYS); send it as "Authorization: Bearer <key>".',
};

/** Quotes a path for a POSIX shell when it holds anything but safe characters. */
function shellQuote(path: string): string {
  return /^[\w./@%+=:,-]+$/.test(path) ? path : `'${path.replace(/'/g, `'\\''`)}'`;
}
