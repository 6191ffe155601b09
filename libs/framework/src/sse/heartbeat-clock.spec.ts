import { describe, expect, it } from '@jest/globals';
import { setTimeout as sleep } from 'node:timers/promises';
import { HeartbeatClock, heartbeatClock } from './heartbeat-clock.js';
import { RecordingResponse } from './__fixtures__/recording-response.js';
import { SseWriter } from './sse-writer.js';

describe('HeartbeatClock', () => {
  it('ticks every member once per period, and stops its timer at the first tick with none', async () => {
    const clock = new HeartbeatClock(20);
    const beats = { a: 0, b: 0 };
    const a = { beat: () => (beats.a += 1) };
    const b = { beat: () => (beats.b += 1) };
    clock.join(a);
    clock.join(b);
    expect(clock.running).toBe(true);
    await sleep(70);
    expect(beats.a).toBeGreaterThanOrEqual(2);
    clock.leave(a);
    const left = beats.a;
    await sleep(50);
    expect(beats.a).toBe(left);
    expect(beats.b).toBeGreaterThan(left);
    clock.leave(b);
    await sleep(50);
    expect(clock.size).toBe(0);
    expect(clock.running).toBe(false);
  });

  it('lets a member leave during its own beat without skipping the others', async () => {
    const clock = new HeartbeatClock(15);
    const seen: string[] = [];
    const first = {
      beat: () => {
        seen.push('first');
        clock.leave(first);
      },
    };
    const second = { beat: () => seen.push('second') };
    clock.join(first);
    clock.join(second);
    await sleep(25);
    clock.leave(second);
    expect(seen.slice(0, 2)).toEqual(['first', 'second']);
    expect(seen.filter((name) => name === 'first')).toHaveLength(1);
  });

  it('is one clock per period for the whole process', () => {
    expect(heartbeatClock(1234)).toBe(heartbeatClock(1234));
    expect(heartbeatClock(1234)).not.toBe(heartbeatClock(1235));
  });
});

describe('SseWriter heartbeat', () => {
  it('pings after one to two periods of silence, never while events flow, and leaves the clock at the end', async () => {
    const res = new RecordingResponse();
    const writer = new SseWriter(res.asResponse(), 30);
    const clock = heartbeatClock(30);
    writer.startHeartbeat();
    expect(clock.size).toBeGreaterThanOrEqual(1);
    await sleep(10);
    expect(res.written).toEqual([]); // not a whole period yet
    await sleep(100); // past two periods since it started
    expect(res.written[0]).toBe(': ping\n\n');
    expect(res.statusCode).toBe(200); // the ping carried the headers
    const pings = res.written.length;
    for (let i = 0; i < 12; i += 1) {
      void writer.write(`event: message\ndata: ${i}\n\n`);
      await sleep(5);
    }
    expect(res.written.slice(pings).every((frame) => frame.startsWith('event: message'))).toBe(
      true,
    );
    writer.end();
    expect(res.writableEnded).toBe(true);
    const ended = res.written.length;
    await sleep(70);
    expect(res.written).toHaveLength(ended);
  });

  it('does not join a clock when the period is 0', () => {
    const writer = new SseWriter(new RecordingResponse().asResponse(), 0);
    writer.startHeartbeat();
    expect(heartbeatClock(0).size).toBe(0);
  });
});
