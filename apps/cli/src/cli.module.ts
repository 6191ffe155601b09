import { type DynamicModule, Module, type Type } from '@nestjs/common';
import { CliSharedModule } from './cli-shared.module.js';
import { ProgramSetupService } from './shell/program-setup.service.js';

/** Loads the Nest module of one command; only that command's code is imported. */
const COMMAND_MODULES: Readonly<Record<string, () => Promise<Type>>> = {
  new: async () => (await import('./modules/new-command.module.js')).NewCommandModule,
  dev: async () => (await import('./modules/dev-command.module.js')).DevCommandModule,
  test: async () => (await import('./modules/test-command.module.js')).TestCommandModule,
  docs: async () => (await import('./modules/docs-command.module.js')).DocsCommandModule,
  deploy: async () => (await import('./modules/deploy-command.module.js')).DeployCommandModule,
  doctor: async () => (await import('./modules/doctor-command.module.js')).DoctorCommandModule,
  ingest: async () => (await import('./modules/ingest-command.module.js')).IngestCommandModule,
  worker: async () => (await import('./modules/worker-command.module.js')).WorkerCommandModule,
  mcp: async () => (await import('./modules/mcp-command.module.js')).McpCommandModule,
};

/**
 * The `toolkit` CLI as Nest sees it: one module per command (a `CommandRunner` and the services it
 * needs) plus the shared services. The executable loads only the invoked command's module; a new
 * command is one more module here and one more manifest entry.
 */
@Module({})
export class CliModule {
  /**
   * The CLI with the given commands (default: all of them, in help order).
   *
   * @example
   * const module = await CliModule.forCommands(['dev']);
   */
  static async forCommands(
    names: readonly string[] = Object.keys(COMMAND_MODULES),
  ): Promise<DynamicModule> {
    const imports = await Promise.all(
      names.map((name) => {
        const load = COMMAND_MODULES[name];
        if (!load) throw new Error(`toolkit has no command "${name}"`);
        return load();
      }),
    );
    return {
      module: CliModule,
      imports: [CliSharedModule, ...imports],
      providers: [ProgramSetupService],
    };
  }
}
