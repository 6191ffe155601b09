import { Command, CommandRunner, Option } from 'nest-commander';
import { DEFAULT_DEV_HOST, DEFAULT_DEV_PORT } from '../cli.constants.js';
import { DOCTOR_COMMAND, DOCTOR_OPTIONS } from '../command-manifest.js';
import { DoctorService } from '../doctor/doctor.service.js';
import { optionMetadata } from './option-metadata.js';

/** Options of `toolkit doctor` after parsing. */
export interface DoctorOptions {
  model?: string;
  port?: number;
  json?: boolean;
}

/**
 * `toolkit doctor [-m|--model NAME] [-p|--port PORT] [--json]`: checks what the app needs and
 * prints one line per check; exit 1 when any check failed.
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

  @Option(optionMetadata(DOCTOR_OPTIONS.json))
  parseJson(): boolean {
    return true;
  }
}
