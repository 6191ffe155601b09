import type * as BullMq from 'bullmq';

/** BullMQ, imported on first use: apps that never queue ingestion never load it. */
export function loadBullMq(): Promise<typeof BullMq> {
  return import('bullmq');
}

/**
 * BullMQ connection options from a Redis URL (`redis://[user:password@]host:port[/db]`, or
 * `rediss://` for TLS). Workers need `maxRetriesPerRequest: null` (BullMQ's own requirement), so
 * a Redis outage pauses them until it is back instead of failing jobs; they reconnect after
 * 0.5 s, 1 s, 1.5 s… then every 5 s.
 */
export function bullConnection(url: string): BullMq.ConnectionOptions {
  const parsed = new URL(url);
  const db = parsed.pathname.length > 1 ? Number(parsed.pathname.slice(1)) : undefined;
  return {
    host: parsed.hostname || '127.0.0.1',
    port: parsed.port ? Number(parsed.port) : 6379,
    ...(parsed.username ? { username: decodeURIComponent(parsed.username) } : {}),
    ...(parsed.password ? { password: decodeURIComponent(parsed.password) } : {}),
    ...(db !== undefined && Number.isInteger(db) ? { db } : {}),
    ...(parsed.protocol === 'rediss:' ? { tls: {} } : {}),
    maxRetriesPerRequest: null,
    // BullMQ's default waits up to 20 s between attempts, so a Redis back after a long outage
    // could go unnoticed that long: at most 5 s here.
    retryStrategy: (times: number) => Math.min(times * 500, 5000),
  };
}

/** `host:port` of a Redis URL, without credentials (for messages). */
export function redisAddress(url: string): string {
  const parsed = new URL(url);
  return `${parsed.hostname || '127.0.0.1'}:${parsed.port || '6379'}`;
}
