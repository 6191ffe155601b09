import { Module } from '@nestjs/common';
import { FileWriterService } from './services/file-writer.service.js';
import { PackageLocatorService } from './services/package-locator.service.js';
import { ProcessService } from './services/process.service.js';
import { PromptService } from './services/prompt.service.js';
import { TerminalService } from './services/terminal.service.js';

/**
 * The services every command may use: printing, spawning, locating packages, writing files and
 * asking questions. Imported by each command's module.
 */
@Module({
  providers: [
    TerminalService,
    ProcessService,
    FileWriterService,
    PackageLocatorService,
    PromptService,
  ],
  exports: [
    TerminalService,
    ProcessService,
    FileWriterService,
    PackageLocatorService,
    PromptService,
  ],
})
export class CliSharedModule {}
