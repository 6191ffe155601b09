import { describe, expect, it } from '@jest/globals';
import { RecordingResponse } from './__fixtures__/recording-response.js';
import { SseWriter } from './sse-writer.js';

const frame = (data: string): string => `event: message\ndata: ${data}\n\n`;
/** Lets the writer's end-of-tick flush run. */
const endOfTick = (): Promise<void> => new Promise((resolve) => process.nextTick(resolve));

describe('SseWriter batching', () => {
  it('hands the frames of one tick to the response in one write, at the end of the tick', async () => {
    const res = new RecordingResponse();
    const writer = new SseWriter(res.asResponse(), 0);
    for (const data of ['a', 'b', 'c']) expect(writer.write(frame(data))).toBeUndefined();
    expect(res.written).toEqual([]);
    expect(res.statusCode).toBe(200); // status and headers are set at the first frame
    await endOfTick();
    expect(res.written).toEqual([frame('a') + frame('b') + frame('c')]);
    void writer.write(frame('d'));
    await endOfTick();
    expect(res.written).toEqual([frame('a') + frame('b') + frame('c'), frame('d')]);
  });

  it('sends what is left with the end, and nothing after it', async () => {
    const res = new RecordingResponse();
    const writer = new SseWriter(res.asResponse(), 0);
    void writer.write(frame('a'));
    void writer.write(frame('b'));
    writer.end();
    expect(res.written).toEqual([frame('a') + frame('b')]);
    expect(res.writableEnded).toBe(true);
    expect(writer.write(frame('late'))).toBeUndefined();
    await endOfTick();
    expect(res.written).toEqual([frame('a') + frame('b')]);
  });

  it('drops what waited when the client is gone, and writes nothing more', async () => {
    const res = new RecordingResponse();
    const writer = new SseWriter(res.asResponse(), 0);
    void writer.write(frame('a'));
    writer.gone();
    void writer.write(frame('b'));
    await endOfTick();
    writer.end();
    expect(res.written).toEqual([]);
  });

  it('writes nothing to a response destroyed before the end of the tick', async () => {
    const res = new RecordingResponse();
    const writer = new SseWriter(res.asResponse(), 0);
    void writer.write(frame('a'));
    res.destroyed = true;
    await endOfTick();
    expect(res.written).toEqual([]);
  });

  it('writes a batch at once past 16 KiB, so a producer that never leaves the tick stays bounded', () => {
    const res = new RecordingResponse();
    const writer = new SseWriter(res.asResponse(), 0);
    const big = frame('x'.repeat(4000));
    for (let i = 0; i < 9; i += 1) void writer.write(big);
    // 4 frames stay under 16 KiB; the 5th crosses it and the batch goes out in the same tick.
    expect(res.written).toEqual([big.repeat(5)]);
  });

  it('reports a slow client with a promise that resolves on drain', async () => {
    const res = new RecordingResponse();
    const writer = new SseWriter(res.asResponse(), 0);
    res.full = true;
    expect(writer.write(frame('a'))).toBeUndefined(); // nothing handed over yet
    await endOfTick();
    expect(res.written).toEqual([frame('a')]);
    let released = false;
    const wait = writer.write(frame('b'));
    expect(wait).toBeInstanceOf(Promise);
    void wait?.then(() => (released = true));
    await endOfTick();
    expect(released).toBe(false);
    res.drain();
    await wait;
    expect(released).toBe(true);
    expect(res.written).toEqual([frame('a'), frame('b')]);
  });

  it('releases a writer waiting for a slow client when the client goes', async () => {
    const res = new RecordingResponse();
    const writer = new SseWriter(res.asResponse(), 0);
    res.full = true;
    void writer.write(frame('a'));
    await endOfTick();
    const wait = writer.write(frame('b'));
    writer.gone();
    await expect(wait).resolves.toBeUndefined();
    expect(res.listenerCount('drain')).toBe(0);
    expect(res.listenerCount('close')).toBe(0);
  });
});
