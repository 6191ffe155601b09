import { Module } from '@nestjs/common';
import { DeployCommand } from './commands/deploy.command.js';
import { DevCommand } from './commands/dev.command.js';
import { DocsCommand } from './commands/docs.command.js';
import { NewCommand } from './commands/new.command.js';
import { StartCommand } from './commands/start.command.js';
import { TestCommand } from './commands/test.command.js';
import { AppServerService } from './dev/app-server.service.js';
import { AppSupervisorService } from './dev/app-supervisor.service.js';
import { AppNameService } from './deploy/app-name.service.js';
import { DeployService } from './deploy/deploy.service.js';
import { VendorToolkitService } from './deploy/vendor-toolkit.service.js';
import { PlatformClientService } from './deploy/platform-client.service.js';
import { CloudGuidePlatform } from './deploy/platforms/cloudguide.platform.js';
import { GithostPlatform } from './deploy/platforms/githost.platform.js';
import { ServerlessPlatform } from './deploy/platforms/serverless.platform.js';
import { VmhostPlatform } from './deploy/platforms/vmhost.platform.js';
import { DocsService } from './docs/docs.service.js';
import { NewProjectService } from './new/new-project.service.js';
import { ProjectWriterService } from './new/project-writer.service.js';
import { TemplateRendererService } from './new/template-renderer.service.js';
import { FileWriterService } from './services/file-writer.service.js';
import { PackageLocatorService } from './services/package-locator.service.js';
import { ProcessService } from './services/process.service.js';
import { PromptService } from './services/prompt.service.js';
import { TerminalService } from './services/terminal.service.js';
import { ProgramSetupService } from './shell/program-setup.service.js';
import { JestRunnerService } from './testing/jest-runner.service.js';

/**
 * The `toolkit` CLI: one `CommandRunner` per command (listed in help order, matching the command
 * manifest) and the services they share for printing, spawning, locating packages and writing
 * files. A new command is one more class here and one more manifest entry.
 */
@Module({
  providers: [
    NewCommand,
    DevCommand,
    StartCommand,
    TestCommand,
    DocsCommand,
    DeployCommand,
    ProgramSetupService,
    TerminalService,
    ProcessService,
    FileWriterService,
    PackageLocatorService,
    PromptService,
    AppServerService,
    AppSupervisorService,
    JestRunnerService,
    DocsService,
    DeployService,
    VendorToolkitService,
    AppNameService,
    PlatformClientService,
    VmhostPlatform,
    GithostPlatform,
    ServerlessPlatform,
    CloudGuidePlatform,
    NewProjectService,
    TemplateRendererService,
    ProjectWriterService,
  ],
})
export class CliModule {}
