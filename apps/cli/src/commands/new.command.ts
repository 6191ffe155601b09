import { Command, CommandRunner, Option } from 'nest-commander';
import { NEW_COMMAND, NEW_OPTIONS } from '../command-manifest.js';
import { NewProjectService } from '../new/new-project.service.js';
import type { HttpPlatformChoice } from '../new/http-platform-choice.js';
import type { ProjectTemplate } from '../new/project-templates.js';
import { optionMetadata } from './option-metadata.js';

/** Options of `toolkit new` after parsing. */
export interface NewOptions {
  template: ProjectTemplate;
  directory: string;
  platform: HttpPlatformChoice;
}

/**
 * `toolkit new <name> [-t|--template chatbot|rag|agent|api] [-d|--directory DIR]
 * [--platform express|fastify]`: creates a project folder `<DIR>/<name>` from a template.
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
      platform: options.platform,
      cwd: process.cwd(),
    });
  }

  @Option(optionMetadata(NEW_OPTIONS.template))
  parseTemplate(value: string): ProjectTemplate {
    // nest-commander installs this parser in place of commander's choices check: keep the check.
    return NEW_OPTIONS.template.parse(value);
  }

  @Option(optionMetadata(NEW_OPTIONS.directory))
  parseDirectory(value: string): string {
    return NEW_OPTIONS.directory.parse(value);
  }

  @Option(optionMetadata(NEW_OPTIONS.platform))
  parsePlatform(value: string): HttpPlatformChoice {
    return NEW_OPTIONS.platform.parse(value);
  }
}
