import { Command, CommandRunner, Option } from 'nest-commander';
import { DEFAULT_DEV_HOST, DEFAULT_DEV_PORT } from '../cli.constants.js';
import { DOCTOR_COMMAND, DOCTOR_OPTIONS } from '../command-manifest.js';
import type { PlatformId } from '../deploy/deploy-platform.interface.js';
import { DoctorService } from '../doctor/doctor.service.js';
import { optionMetadata } from './option-metadata.js';

/** Options of `toolkit doctor` after parsing. */
export interface DoctorOptions {
  model?: string;
  port?: number;
  platform?: PlatformId;
  json?: boolean;
}

/**
 * `toolkit doctor [-m|--model NAME] [-p|--port PORT] [--platform NAME] [--json]`: checks what the
 * app needs (and, with `--platform`, the deploy client) and prints one line per check; exit 1 when
 * any check failed.
 */
@Command(DOCTOR_COMMAND)
export class DoctorCommand extends CommandRunner {
  constructor(private readonly doctor: DoctorService) {
    super();
  }

  async run(_args: string[], options: DoctorOptions): Promise<void> {
    const envPort = Number(process.env.PORT);
    await this.doctor.run({
      cwd: process.cwd(),
      env: process.env,
      model: options.model,
      port: options.port ?? (Number.isInteger(envPort) && envPort > 0 ? envPort : DEFAULT_DEV_PORT),
      host: DEFAULT_DEV_HOST,
      platform: options.platform,
      json: options.json ?? false,
    });
  }

  @Option(optionMetadata(DOCTOR_OPTIONS.model))
  parseModel(value: string): string {
    return DOCTOR_OPTIONS.model.parse(value);
  }

  @Option(optionMetadata(DOCTOR_OPTIONS.port))
  parsePort(value: string): number {
    return DOCTOR_OPTIONS.port.parse(value);
  }

  @Option(optionMetadata(DOCTOR_OPTIONS.platform))
  parsePlatform(value: string): PlatformId {
    return DOCTOR_OPTIONS.platform.parse(value);
  }

  @Option(optionMetadata(DOCTOR_OPTIONS.json))
  parseJson(): boolean {
    return true;
  }
}
