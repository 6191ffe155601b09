import { InvalidArgumentError } from 'commander';

/** The project templates `toolkit new` offers, in the order the help lists them. */
export const PROJECT_TEMPLATES = ['chatbot', 'rag', 'agent', 'api'] as const;

/** One of {@link PROJECT_TEMPLATES}. */
export type ProjectTemplate = (typeof PROJECT_TEMPLATES)[number];

/** The template used when `--template` is not given. */
export const DEFAULT_TEMPLATE: ProjectTemplate = 'chatbot';

/** True when `value` names a template. */
export function isProjectTemplate(value: string): value is ProjectTemplate {
  return (PROJECT_TEMPLATES as readonly string[]).includes(value);
}

/**
 * Parses the `--template` option. Anything but a known template is a usage error, worded like
 * commander's own `choices` check (the CLI exits with 2).
 *
 * @example
 * parseTemplate('api'); // 'api'
 */
export function parseTemplate(value: string): ProjectTemplate {
  if (!isProjectTemplate(value)) {
    throw new InvalidArgumentError(`Allowed choices are ${PROJECT_TEMPLATES.join(', ')}.`);
  }
  return value;
}
