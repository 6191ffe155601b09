import { probeRedis } from '../doctor/backend-probes.js';
import { CliError } from '../errors/cli.errors.js';
import { NO_REDIS_MESSAGE, type IngestSettings } from './ingest-settings.js';

/**
 * The project's Redis URL once it answered PING; a one-line {@link CliError} (exit 1) when none
 * is configured or it does not answer.
 */
export async function reachableRedis(settings: IngestSettings): Promise<string> {
  const { redisUrl, redisKey } = settings;
  if (redisUrl === undefined || redisKey === undefined) throw new CliError(NO_REDIS_MESSAGE);
  const check = await probeRedis(redisKey, redisUrl);
  if (check.status === 'fail') throw new CliError(`Redis ${check.detail}`);
  return redisUrl;
}
