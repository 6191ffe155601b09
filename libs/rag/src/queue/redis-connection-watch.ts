import type { QueueBase } from 'bullmq';

/**
 * Told when a queue's or a worker's connection to Redis drops and when it is back (options of
 * `IngestionQueue` and `IngestionWorker`).
 *
 * @example
 * await IngestionWorker.start({
 *   redisUrl, target: index,
 *   onConnectionLost: (reason) => console.warn(`${reason}; reconnecting`),
 *   onConnectionRestored: () => console.log('Redis is back'),
 * });
 */
export interface RedisConnectionEvents {
  /**
   * The connection dropped (once per outage). BullMQ keeps reconnecting meanwhile: queued jobs
   * stay in Redis, and commands wait for the connection instead of failing.
   */
  onConnectionLost?: (reason: string) => void;
  /** The connection is back after {@link onConnectionLost}: jobs flow again. */
  onConnectionRestored?: () => void;
  /**
   * Any other error BullMQ reports (never thrown: it would crash the process). A job whose
   * lock expired during an outage is said once, in words: it runs again.
   */
  onError?: (message: string) => void;
}

const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/** True for the errors of a Redis connection going away (not of a command). */
export function isConnectionError(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  if (typeof code === 'string' && CONNECTION_CODES.has(code)) return true;
  return typeof message === 'string' && /Connection is closed|connect ECONN/i.test(message);
}

/**
 * Turns BullMQ's connection events into one `lost` and one `restored` call per outage (a
 * worker has two connections, each emitting on every reconnection attempt), and keeps its
 * `error` events from ever being unhandled: without a listener, BullMQ prints them with their
 * stack.
 */
export function watchRedisConnection(
  target: QueueBase,
  address: string,
  events: RedisConnectionEvents,
): void {
  let down = false;
  const lost = (reason: string): void => {
    if (down || target.closing) return;
    down = true;
    events.onConnectionLost?.(`lost the connection to Redis at ${address} (${reason})`);
  };
  const retaken = new Set<string>();
  target.on('error', (error: Error) => {
    if (isConnectionError(error)) return lost(error.message);
    if (target.closing) return;
    const expired = /^(?:Missing lock|could not renew lock) for job ([\w-]+)/.exec(
      error.message,
    )?.[1];
    if (expired === undefined) return events.onError?.(error.message);
    // Said once per job (BullMQ reports the lock it cannot renew, the result, the retry).
    if (retaken.has(expired)) return;
    retaken.add(expired);
    events.onError?.(
      `the result of job ${expired} could not be recorded: Redis was away longer than its lock, ` +
        'so the job runs again (content already indexed is not added twice)',
    );
  });
  target.on('ioredis:close', () => lost('connection closed'));
  target.getBackend().on('ready', () => {
    if (!down) return;
    down = false;
    events.onConnectionRestored?.();
  });
}
