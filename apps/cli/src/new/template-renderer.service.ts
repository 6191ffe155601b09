import { Injectable } from '@nestjs/common';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { TemplateUnavailableError } from './new.errors.js';
import type { ProjectTemplate } from './project-templates.js';
import {
  listTemplateFiles,
  PARTIALS_DIR,
  projectPath,
  SHARED_TEMPLATE,
  TEMPLATE_SUFFIX,
} from './template-files.js';
import type { TemplateVariables } from './template-variables.js';

/** One file of a new project, ready to be written. */
export interface GeneratedFile {
  /** Path inside the project, `/`-separated, e.g. `src/chat.controller.ts`. */
  path: string;
  /** Exact bytes: rendered text for `.hbs` templates, the template file's bytes otherwise. */
  content: Buffer;
  /** File mode bits copied from the template (keeps executables executable). */
  mode: number;
}

type Handlebars = typeof import('handlebars');

/**
 * Turns `templates/_shared/` plus `templates/<template>/` (on top: same path wins) into the files
 * of a new project. `.hbs` files are rendered with handlebars in strict mode (a variable missing
 * from the context is an error, not an empty string) and without HTML escaping (none of the
 * output is HTML built from input; JSON files use the `{{json value}}` helper); every other file
 * is copied byte for byte. Every file in `_shared/partials/` is a partial named after its base
 * name (`{{> run}}`).
 *
 * @example
 * const files = await renderer.render('/opt/toolkit/templates', 'chatbot', variables);
 */
@Injectable()
export class TemplateRendererService {
  async render(
    templatesDir: string,
    template: ProjectTemplate,
    variables: TemplateVariables,
  ): Promise<GeneratedFile[]> {
    const shared = join(templatesDir, SHARED_TEMPLATE);
    const own = join(templatesDir, template);
    for (const dir of [shared, own]) {
      if (!isDirectory(dir)) throw new TemplateUnavailableError(`${dir} is missing`);
    }
    // Loaded on demand: only `toolkit new` needs handlebars, the other commands start faster.
    const handlebars = (await import('handlebars')).default.create();
    // `{{json value}}`: a JSON literal, for values inside package.json and other JSON files.
    handlebars.registerHelper('json', (value: unknown) => JSON.stringify(value));
    registerPartials(handlebars, join(shared, PARTIALS_DIR));

    const files = new Map<string, GeneratedFile>();
    for (const [root, skip] of [
      [shared, [PARTIALS_DIR]],
      [own, []],
    ] as const) {
      for (const relative of listTemplateFiles(root, skip)) {
        const source = join(root, relative);
        const path = projectPath(relative);
        const content = relative.endsWith(TEMPLATE_SUFFIX)
          ? Buffer.from(renderFile(handlebars, source, variables))
          : readFileSync(source);
        if (path.endsWith('.json')) checkJson(source, content);
        files.set(path, { path, content, mode: statSync(source).mode & 0o777 });
      }
    }
    return [...files.values()].sort((a, b) => a.path.localeCompare(b.path));
  }
}

function isDirectory(path: string): boolean {
  return existsSync(path) && statSync(path).isDirectory();
}

function registerPartials(handlebars: Handlebars, dir: string): void {
  if (!isDirectory(dir)) return;
  for (const file of listTemplateFiles(dir)) {
    if (!file.endsWith(TEMPLATE_SUFFIX) || file.includes('/')) continue;
    handlebars.registerPartial(
      basename(file, TEMPLATE_SUFFIX),
      readFileSync(join(dir, file), 'utf8'),
    );
  }
}

function renderFile(handlebars: Handlebars, source: string, variables: TemplateVariables): string {
  try {
    const render = handlebars.compile<TemplateVariables>(readFileSync(source, 'utf8'), {
      noEscape: true,
      strict: true,
    });
    return render(variables);
  } catch (error) {
    throw new TemplateUnavailableError(
      `cannot render ${source}: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}

/** A generated JSON file that does not parse would fail much later, inside `npm install`. */
function checkJson(source: string, content: Buffer): void {
  try {
    JSON.parse(content.toString('utf8'));
  } catch (error) {
    throw new TemplateUnavailableError(
      `${source} does not render to valid JSON (${error instanceof Error ? error.message : String(error)})`,
    );
  }
}
