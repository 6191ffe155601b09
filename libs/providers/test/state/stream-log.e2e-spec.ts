/**
 * The resumable-stream logs, in-process and Redis, against one contract: numbered entries read
 * from any position, unknown streams told apart from empty ones, waits woken by appends, cancels
 * seen by the writer, and everything gone after the time to live.
 */
import { afterAll, describe, expect, it } from '@jest/globals';
import { Redis } from 'ioredis';
import { setTimeout as sleep } from 'node:timers/promises';
import { MemoryStreamLog } from '../../src/streams/memory-stream-log.js';
import { RedisStreamLog } from '../../src/streams/redis-stream-log.js';
import type { StreamLog } from '../../src/streams/stream-log.interface.js';

const REDIS_URL = 'redis://127.0.0.1:6379';
const prefix = `stream-log-test:${process.pid}:`;

const logs: Array<[string, () => StreamLog]> = [
  ['memory', () => new MemoryStreamLog()],
  ['redis', () => new RedisStreamLog({ url: REDIS_URL, keyPrefix: prefix })],
];

describe.each(logs)('%s stream log', (_name, make) => {
  const log = make();
  afterAll(() => log.close());

  it('reads numbered entries from any position; unknown streams are undefined', async () => {
    await log.create('a', 60);
    expect(await log.read('a', 0)).toEqual([]);
    await log.append('a', { kind: 'event', data: 'one' }, 60);
    await log.append('a', { kind: 'event', data: 'two', type: 'note', retry: 10 }, 60);
    await log.append('a', { kind: 'end' }, 60);
    expect(await log.read('a', 0)).toEqual([
      { kind: 'event', data: 'one' },
      { kind: 'event', data: 'two', type: 'note', retry: 10 },
      { kind: 'end' },
    ]);
    expect(await log.read('a', 2)).toEqual([{ kind: 'end' }]);
    expect(await log.read('a', 3)).toEqual([]);
    expect(await log.read('never-made', 0)).toBeUndefined();
  });

  it('wakes a waiting reader on append, and returns at once when entries are there', async () => {
    await log.create('w', 60);
    const waited = log.wait('w', 0, 10_000).then(() => 'woken');
    await sleep(20);
    await log.append('w', { kind: 'event', data: 'x' }, 60);
    expect(await waited).toBe('woken');
    expect(await Promise.race([log.wait('w', 0, 10_000).then(() => 'at once'), sleep(500)])).toBe(
      'at once',
    );
  });

  it('tells the writer about a cancel, through the listener and the next append', async () => {
    await log.create('c', 60);
    let heard = 0;
    const off = log.onCancel('c', () => (heard += 1));
    expect(await log.cancel('c')).toBe(true);
    for (let i = 0; i < 100 && heard === 0; i += 1) await sleep(10);
    expect(heard).toBe(1);
    off();
    expect(await log.append('c', { kind: 'event', data: 'late' }, 60)).toEqual({ cancelled: true });
    expect(await log.cancel('unknown')).toBe(false);
  });

  it('forgets a stream after its time to live', async () => {
    await log.create('t', 0.2);
    await log.append('t', { kind: 'event', data: 'soon gone' }, 0.2);
    await sleep(400);
    expect(await log.read('t', 0)).toBeUndefined();
  });
});

describe('memory stream log bound', () => {
  it('holds nothing once 10,000 finished streams passed their time to live', async () => {
    const log = new MemoryStreamLog();
    for (let i = 0; i < 10_000; i += 1) {
      await log.create(`s${i}`, 0.1);
      await log.append(`s${i}`, { kind: 'event', data: 'x'.repeat(100) }, 0.1);
      await log.append(`s${i}`, { kind: 'end' }, 0.1);
    }
    expect(log.size).toBe(10_000);
    await sleep(300);
    expect(log.size).toBe(0);
    await log.close();
  });
});

afterAll(async () => {
  const redis = new Redis(REDIS_URL);
  const keys = await redis.keys(`${prefix}*`);
  if (keys.length > 0) await redis.del(...keys);
  redis.disconnect();
});
