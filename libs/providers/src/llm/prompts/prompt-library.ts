import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { PromptError } from './prompt.error.js';

type Render = (vars: Record<string, unknown>) => string;
type Handlebars = typeof import('handlebars');

// Loaded on first use: apps that have no prompt files never pay for handlebars.
const loadHandlebars = (): Handlebars => createRequire(import.meta.url)('handlebars') as Handlebars;

const EXTENSION = '.hbs';

/** Handlebars' strict-mode message names the missing variable: `"text" not defined in ...`. */
function missingVariable(error: unknown): string | undefined {
  const message = error instanceof Error ? error.message : '';
  return /^"([^"]+)" not defined in/.exec(message)?.[1];
}

/**
 * The `*.hbs` prompt files of a folder (`prompts/summarize.hbs` is the prompt `summarize`),
 * compiled with handlebars in strict mode (a variable the call does not give is an error naming
 * it, never an empty string) and without HTML escaping. Read once, on first use; `reload()`
 * reads the folder again.
 *
 * @example
 * const prompts = new PromptLibrary('prompts');
 * prompts.render('summarize', { text }); // the filled-in prompt
 */
export class PromptLibrary {
  private templates: Map<string, Render> | undefined;
  /** Absolute path of the folder. */
  readonly dir: string;

  constructor(dir: string = join(process.cwd(), 'prompts')) {
    this.dir = resolve(dir);
  }

  /** Names of the prompts found. */
  names(): string[] {
    return [...this.load().keys()].sort();
  }

  /** Forgets the compiled prompts: the next use reads the folder again. */
  reload(): void {
    this.templates = undefined;
  }

  /** Fills in the prompt `name`; unknown names and missing variables throw {@link PromptError}. */
  render(name: string, vars: Record<string, unknown> = {}): string {
    const templates = this.load();
    const template = templates.get(name);
    if (!template) {
      const known = [...templates.keys()].sort().join(', ') || 'none';
      throw new PromptError(`Unknown prompt "${name}" in ${this.dir} (prompts: ${known})`);
    }
    try {
      return template(vars);
    } catch (error) {
      const variable = missingVariable(error);
      if (variable) {
        throw new PromptError(`Prompt "${name}" needs the variable "${variable}"`, error);
      }
      throw new PromptError(`Prompt "${name}" failed: ${(error as Error).message}`, error);
    }
  }

  private load(): Map<string, Render> {
    if (this.templates) return this.templates;
    let files: string[];
    try {
      files = readdirSync(this.dir).filter((f) => f.endsWith(EXTENSION));
    } catch (error) {
      throw new PromptError(`Cannot read the prompts folder ${this.dir}`, error);
    }
    const templates = new Map<string, Render>();
    const Handlebars = loadHandlebars();
    for (const file of files) {
      const source = readFileSync(join(this.dir, file), 'utf8');
      try {
        const render = Handlebars.compile(source, { strict: true, noEscape: true });
        // Compile now, so a syntax error names the file at load time.
        Handlebars.precompile(source, { strict: true });
        templates.set(file.slice(0, -EXTENSION.length), render);
      } catch (error) {
        throw new PromptError(
          `Prompt file ${file} is not a valid template: ${(error as Error).message}`,
          error,
        );
      }
    }
    this.templates = templates;
    return templates;
  }
}
