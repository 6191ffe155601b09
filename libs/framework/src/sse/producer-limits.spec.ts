import { describe, expect, it, jest } from '@jest/globals';
import type { LimitsSettings } from '../rate-limit/limits-settings.js';
import { ProducerLimits } from './producer-limits.js';
import { StreamDetachedError, TooManyStreamsError } from './stream-limit.errors.js';

const LIMITS: LimitsSettings = {
  session_requests: 0,
  address_requests: 0,
  window: 60,
  streams_per_session: 2,
  streams_per_address: 3,
  detached_per_session: 1,
  detached_grace: 30,
};

function producer(limits: ProducerLimits, key: string, owner: string | undefined, address = 'a') {
  const controller = new AbortController();
  limits.add(key, { owner, address, controller });
  return controller;
}

describe('ProducerLimits', () => {
  it('refuses a producer past the cap of its session, then of its address', () => {
    const limits = new ProducerLimits(LIMITS);
    producer(limits, '1', 's');
    producer(limits, '2', 's');
    expect(() => limits.admit('s', 'a')).toThrow(TooManyStreamsError);
    expect(() => limits.admit('s', 'a')).toThrow(/this session: at most 2 at once/);
    producer(limits, '3', 't');
    expect(() => limits.admit('u', 'a')).toThrow(/this address: at most 3 at once/);
    expect(() => limits.admit('u', 'b')).not.toThrow();
    limits.remove('1');
    expect(() => limits.admit('s', 'a')).not.toThrow();
    expect(limits.size).toBe(2);
  });

  it('stops a producer nobody reads after the grace, not one a client reads', () => {
    jest.useFakeTimers();
    try {
      const limits = new ProducerLimits(LIMITS);
      const read = producer(limits, 'read', 's');
      const dropped = producer(limits, 'dropped', 's');
      limits.attach('read');
      const leave = limits.attach('dropped');
      if (leave === false) throw new Error('not tracked');
      leave();
      expect(limits.detached).toBe(1);
      jest.advanceTimersByTime(29_000);
      expect(dropped.signal.aborted).toBe(false);
      jest.advanceTimersByTime(1_000);
      expect(dropped.signal.reason).toBeInstanceOf(StreamDetachedError);
      expect(String((dropped.signal.reason as Error).message)).toMatch(
        /no client read it for 30 s/,
      );
      expect(read.signal.aborted).toBe(false);
    } finally {
      jest.useRealTimers();
    }
  });

  it('keeps a producer whose client came back within the grace', () => {
    jest.useFakeTimers();
    try {
      const limits = new ProducerLimits(LIMITS);
      const stream = producer(limits, 'k', 's');
      const first = limits.attach('k');
      if (first === false) throw new Error('not tracked');
      first();
      jest.advanceTimersByTime(20_000);
      limits.attach('k');
      jest.advanceTimersByTime(60_000);
      expect(stream.signal.aborted).toBe(false);
    } finally {
      jest.useRealTimers();
    }
  });

  it('stops the oldest detached producer of a session past detached_per_session', () => {
    const limits = new ProducerLimits(LIMITS);
    const older = producer(limits, 'older', 's');
    const newer = producer(limits, 'newer', 's');
    const other = producer(limits, 'other', 't');
    for (const key of ['older', 'other', 'newer']) {
      const leave = limits.attach(key);
      if (leave === false) throw new Error('not tracked');
      leave();
    }
    expect(older.signal.reason).toBeInstanceOf(StreamDetachedError);
    expect(newer.signal.aborted).toBe(false);
    expect(other.signal.aborted).toBe(false);
  });

  it('asks whether a reader elsewhere holds the stream before stopping it', async () => {
    const limits = new ProducerLimits({ ...LIMITS, detached_grace: 0 });
    let remote = true;
    const controller = new AbortController();
    const asked: boolean[] = [];
    limits.add('k', {
      owner: 's',
      address: 'a',
      controller,
      remoteReader: () => {
        asked.push(remote);
        return Promise.resolve(remote);
      },
    });
    const leave = limits.attach('k');
    if (leave === false) throw new Error('not tracked');
    leave();
    while (asked.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(controller.signal.aborted).toBe(false);
    remote = false;
    while (!controller.signal.aborted) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(asked).toEqual([true, false]);
  });
});
