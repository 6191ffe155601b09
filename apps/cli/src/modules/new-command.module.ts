import { Module } from '@nestjs/common';
import { CliSharedModule } from '../cli-shared.module.js';
import { NewCommand } from '../commands/new.command.js';
import { NewProjectService } from '../new/new-project.service.js';
import { ProjectWriterService } from '../new/project-writer.service.js';
import { TemplateRendererService } from '../new/template-renderer.service.js';

/** `toolkit new` and the services that render and write a project. */
@Module({
  imports: [CliSharedModule],
  providers: [NewCommand, NewProjectService, TemplateRendererService, ProjectWriterService],
})
export class NewCommandModule {}
