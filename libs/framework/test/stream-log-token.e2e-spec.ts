/**
 * The log of resumable streams is a provider (`StreamLog`) like the cache and memory stores:
 * ToolkitModule builds it from the configuration, `ResumableStreams` writes to the one injected,
 * a test replaces it with `overrideProvider(StreamLog)`, and it is closed with the application.
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import { Controller } from '@nestjs/common';
import { Route, Stream, StreamLog, TOOLKIT_CONFIG, type StreamLogEntry } from 'toolkit';
import { createTestingApp, createTestingModule, type TestingApp } from 'toolkit/testing';
import { MemoryStreamLog } from '../../providers/src/streams/memory-stream-log.js';

@Controller()
class CountController {
  @Route('/count', { methods: ['POST'] })
  @Stream({ resumable: true })
  async *count(): AsyncGenerator<string> {
    yield 'one';
    yield 'two';
  }
}

/** An in-process log that remembers what it was given, and whether it was closed. */
class RecordingLog extends MemoryStreamLog {
  readonly appended: StreamLogEntry[] = [];
  closed = false;

  override append(id: string, entry: StreamLogEntry, ttlSeconds: number) {
    this.appended.push(entry);
    return super.append(id, entry, ttlSeconds);
  }

  override close(): Promise<void> {
    this.closed = true;
    return super.close();
  }
}

/** A log whose backend is down: nothing can be opened. */
class DownLog extends MemoryStreamLog {
  override create(): Promise<void> {
    return Promise.reject(new Error('stream log backend unreachable'));
  }
}

const opened: TestingApp[] = [];
afterEach(async () => {
  for (const testing of opened.splice(0)) await testing.close();
});

async function start(log?: StreamLog): Promise<TestingApp> {
  let builder = createTestingModule({ controllers: [CountController] });
  if (log) builder = builder.overrideProvider(StreamLog).useValue(log);
  const testing = await createTestingApp({}, builder);
  opened.push(testing);
  return testing;
}

describe('StreamLog', () => {
  it('is provided by ToolkitModule from the configuration: in-process by default', async () => {
    const { module } = await start();
    const log = module.get<StreamLog>(StreamLog);
    expect(log).toBeInstanceOf(MemoryStreamLog);
    expect(module.get(TOOLKIT_CONFIG)).toMatchObject({ memory: { backend: 'memory' } });
  });

  it('is the log resumable streams write to, replaced with overrideProvider', async () => {
    const log = new RecordingLog();
    const testing = await start(log);
    const res = await testing.client.post('/count');
    expect(res.headers['x-stream-id']).toBeDefined();
    expect(res.events().map((event) => event.data)).toEqual(['one', 'two']);
    expect(log.appended).toEqual([
      { kind: 'event', data: 'one' },
      { kind: 'event', data: 'two' },
      { kind: 'end' },
    ]);
    expect(log.closed).toBe(false);
    await testing.close();
    opened.splice(opened.indexOf(testing), 1);
    expect(log.closed).toBe(true);
  });

  it('serves the stream without resumption when the injected log cannot open it', async () => {
    const testing = await start(new DownLog());
    const res = await testing.client.post('/count');
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-stream-id']).toBeUndefined();
    expect(res.events().map((event) => event.data)).toEqual(['one', 'two']);
  });
});
