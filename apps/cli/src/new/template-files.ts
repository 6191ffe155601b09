import { readdirSync } from 'node:fs';
import { join, posix } from 'node:path';

/** Folder of `templates/` copied into every project before the chosen template. */
export const SHARED_TEMPLATE = '_shared';
/** Folder of `templates/_shared/` holding handlebars partials (`{{> run}}`); never copied. */
export const PARTIALS_DIR = 'partials';
/** Suffix of the files rendered with handlebars; the suffix is dropped from the output name. */
export const TEMPLATE_SUFFIX = '.hbs';

/**
 * Template files named without their leading dot, so npm packs them and editors show them:
 * each becomes the dotfile in the project (`gitignore` → `.gitignore`, `env.hbs` → `.env`).
 */
export const DOTFILE_NAMES: Readonly<Record<string, string>> = {
  gitignore: '.gitignore',
  env: '.env',
  npmrc: '.npmrc',
};

/**
 * Where a template file lands in the project, from its path inside the template folder
 * (`/`-separated): `.hbs` dropped, dotfile names restored.
 *
 * @example
 * projectPath('env.hbs'); // '.env'
 * projectPath('src/app.ts.hbs'); // 'src/app.ts'
 */
export function projectPath(templatePath: string): string {
  const rendered = templatePath.endsWith(TEMPLATE_SUFFIX)
    ? templatePath.slice(0, -TEMPLATE_SUFFIX.length)
    : templatePath;
  const dir = posix.dirname(rendered);
  const base = posix.basename(rendered);
  const name = DOTFILE_NAMES[base] ?? base;
  return dir === '.' ? name : `${dir}/${name}`;
}

/**
 * Every file under `root`, as `/`-separated paths relative to it, sorted. Folders listed in
 * `skip` (relative, top level) are left out.
 */
export function listTemplateFiles(root: string, skip: readonly string[] = []): string[] {
  const found: string[] = [];
  const walk = (dir: string, prefix: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const relative = prefix === '' ? entry.name : `${prefix}/${entry.name}`;
      if (entry.isDirectory()) {
        if (!(prefix === '' && skip.includes(entry.name))) walk(join(dir, entry.name), relative);
      } else if (entry.isFile()) {
        found.push(relative);
      }
    }
  };
  walk(root, '');
  return found.sort();
}
