import { describe, expect, it } from '@jest/globals';
import { RecordingResponse } from './__fixtures__/recording-response.js';
import { SsePump, type SsePumpOptions } from './sse-pump.js';

const frame = (data: string): string => `event: message\ndata: ${data}\n\n`;
const errorFrame = (message: string): string =>
  `event: error\ndata: ${JSON.stringify({ error: message })}\n\n`;

function options(endMarker: boolean): SsePumpOptions {
  return {
    heartbeatMs: 0,
    maxPendingBytes: 0,
    onOverflow: () => undefined,
    describeError: (error) => (error instanceof Error ? error.message : String(error)),
    endMarker,
  };
}

/** What `chunks` gives the pump, as the handler's output would. */
async function* emissions(...chunks: unknown[]): AsyncGenerator<unknown> {
  yield* chunks;
}

/** Yields `first`, then waits until `release` resolves and throws `error` if given. */
async function* held(
  first: string,
  release: Promise<void>,
  error?: Error,
  finished?: () => void,
): AsyncGenerator<string> {
  try {
    yield first;
    await release;
    if (error) throw error;
    yield 'after';
  } finally {
    finished?.();
  }
}

function gate(): { opened: Promise<void>; open: () => void } {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

describe('SsePump end marker', () => {
  it('closes a stream that ended with the id-only end frame, counting its events', async () => {
    const res = new RecordingResponse();
    await new SsePump(emissions('a', { data: 'b' }), res.asResponse(), options(true)).run();
    expect(res.written.join('')).toBe(
      `${frame('a')}event: message\ndata: b\nid: 1\n\nid: toolkit-end.2\n\n`,
    );
    expect(res.writableEnded).toBe(true);
  });

  it('sends the marker alone for a stream with no event', async () => {
    const res = new RecordingResponse();
    await new SsePump(emissions(), res.asResponse(), options(true)).run();
    expect(res.written.join('')).toBe('id: toolkit-end.0\n\n');
    expect(res.statusCode).toBe(200);
  });

  it('sends none unless asked', async () => {
    const res = new RecordingResponse();
    await new SsePump(emissions('a'), res.asResponse(), options(false)).run();
    expect(res.written.join('')).toBe(frame('a'));
  });

  it('follows the closing event: error of a failure with the marker', async () => {
    const res = new RecordingResponse();
    const release = gate();
    release.open();
    const source = emissions(held('a', release.opened, new Error('upstream broke')));
    await new SsePump(source, res.asResponse(), options(true)).run();
    expect(res.written.join('')).toBe(
      `${frame('a')}${errorFrame('upstream broke')}id: toolkit-end.1\n\n`,
    );
  });

  it('follows the error of fail() (an overrun) with the marker', async () => {
    const res = new RecordingResponse();
    const release = gate();
    const pump = new SsePump(emissions(held('a', release.opened)), res.asResponse(), options(true));
    const done = pump.run();
    await new Promise((resolve) => setImmediate(resolve));
    pump.fail(new Error('too far behind'));
    release.open();
    await done;
    expect(res.written.join('')).toBe(
      `${frame('a')}${errorFrame('too far behind')}id: toolkit-end.1\n\n`,
    );
  });

  it('sends no marker when stop() ends the stream (shutdown): a reconnect should run it again', async () => {
    const res = new RecordingResponse();
    const release = gate();
    const pump = new SsePump(emissions(held('a', release.opened)), res.asResponse(), options(true));
    const done = pump.run();
    await new Promise((resolve) => setImmediate(resolve));
    pump.stop('The server is shutting down');
    release.open();
    await done;
    expect(res.written.join('')).toBe(`${frame('a')}${errorFrame('The server is shutting down')}`);
    expect(res.written.join('')).not.toContain('toolkit-end');
  });

  it('writes nothing more once the client went, the marker included', async () => {
    const res = new RecordingResponse();
    const release = gate();
    const finished = gate();
    const pump = new SsePump(
      emissions(held('a', release.opened, undefined, finished.open)),
      res.asResponse(),
      options(true),
    );
    const done = pump.run();
    await new Promise((resolve) => setImmediate(resolve));
    const before = res.written.join('');
    res.destroyed = true;
    res.emit('close');
    release.open();
    await Promise.all([done, finished.opened]);
    expect(before).toBe(frame('a'));
    expect(res.written.join('')).toBe(before);
    expect(res.writableEnded).toBe(false);
  });
});
