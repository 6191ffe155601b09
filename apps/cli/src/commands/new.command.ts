import { InvalidArgumentError } from 'commander';
import { Command, CommandRunner, Option } from 'nest-commander';
import { NEW_COMMAND } from '../command-manifest.js';
import { NewProjectService } from '../new/new-project.service.js';
import {
  DEFAULT_TEMPLATE,
  parseTemplate,
  PROJECT_TEMPLATES,
  type ProjectTemplate,
} from '../new/project-templates.js';

/** Options of `toolkit new` after parsing. */
export interface NewOptions {
  template: ProjectTemplate;
  directory: string;
}

/**
 * `toolkit new <name> [-t|--template chatbot|rag|agent|api] [-d|--directory DIR]`: creates a
 * project folder `<DIR>/<name>` from a template.
 */
@Command(NEW_COMMAND)
export class NewCommand extends CommandRunner {
  constructor(private readonly projects: NewProjectService) {
    super();
  }

  async run([name]: string[], options: NewOptions): Promise<void> {
    await this.projects.create({
      name,
      template: options.template,
      directory: options.directory,
      cwd: process.cwd(),
    });
  }

  @Option({
    flags: '-t, --template <template>',
    description: 'project template to start from',
    defaultValue: DEFAULT_TEMPLATE,
    choices: [...PROJECT_TEMPLATES],
  })
  parseTemplate(value: string): ProjectTemplate {
    // nest-commander installs this parser in place of commander's choices check: keep the check.
    return parseTemplate(value);
  }

  @Option({
    flags: '-d, --directory <dir>',
    description: 'folder to create the project folder in',
    defaultValue: '.',
  })
  parseDirectory(value: string): string {
    if (value.trim() === '') throw new InvalidArgumentError('Expected a folder path.');
    return value;
  }
}
