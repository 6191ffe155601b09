import { InvalidArgumentError } from 'commander';
import type { DoctorCheck } from '../doctor/doctor-check.js';

/** The platform kinds `toolkit deploy` knows. */
export type PlatformId = 'vmhost' | 'githost' | 'serverless' | 'cloudguide';

/** Every platform with its brand alias, in the order help and errors list them. */
export const PLATFORM_ALIASES: ReadonlyArray<readonly [PlatformId, string]> = [
  ['vmhost', 'fly'],
  ['githost', 'heroku'],
  ['serverless', 'vercel'],
  ['cloudguide', 'aws'],
];

/** What `toolkit deploy` was asked. */
export interface DeployRequest {
  /** Project folder. */
  cwd: string;
  /** `--app-name`, already validated. */
  appName?: string;
  /** `--region`. */
  region?: string;
}

/**
 * One deployment target. Implementations are injectable services; the `DeployService` picks one
 * by id or brand alias.
 */
export interface DeployPlatform {
  /** e.g. `vmhost`. */
  readonly id: PlatformId;
  /**
   * True when the platform ships the project itself, so a toolkit dependency on a local folder
   * is vendored first (`vendor/*.tgz`, `package.json` rewritten); false for `cloudguide`, which
   * only prints a guide and writes nothing.
   */
  readonly shipsProject: boolean;
  /** Deploys (or, for `cloudguide`, prints the guide). Throws a `CliError` on failure. */
  deploy(request: DeployRequest): Promise<void>;
  /**
   * What {@link deploy} verifies and generates, one line each (app name, files, ...), without
   * running the client or writing anything; for `toolkit deploy --check`.
   */
  check(request: DeployRequest): Promise<DoctorCheck[]>;
}

/**
 * The platform an argument names (`vmhost` or its alias `fly`, any case), or `undefined`.
 *
 * @example
 * resolvePlatformId('Heroku'); // 'githost'
 */
export function resolvePlatformId(value: string): PlatformId | undefined {
  const wanted = value.trim().toLowerCase();
  return PLATFORM_ALIASES.find(([id, alias]) => id === wanted || alias === wanted)?.[0];
}

/** `vmhost (fly), githost (heroku), ...` for messages. */
export function describePlatforms(): string {
  return PLATFORM_ALIASES.map(([id, alias]) => `${id} (${alias})`).join(', ');
}

/**
 * Parses a `--platform` option (id or brand alias, any case); an unknown name is a usage error
 * listing the platforms.
 *
 * @example
 * parsePlatform('fly'); // 'vmhost'
 */
export function parsePlatform(value: string): PlatformId {
  const id = resolvePlatformId(value);
  if (!id)
    throw new InvalidArgumentError(
      `Unknown platform "${value}"; choose one of ${describePlatforms()}.`,
    );
  return id;
}
