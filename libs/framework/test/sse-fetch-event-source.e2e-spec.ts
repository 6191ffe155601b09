/**
 * `@microsoft/fetch-event-source` (the common client for POST streams) resuming a resumable
 * stream after its connection is cut at many byte positions: it takes an event's id as soon as it
 * reads the `id:` line, so toolkit writes that line after the event's `data:` lines. The client
 * then receives every event exactly once wherever the cut falls — except between the `id:` line
 * and the blank line that ends the event, the one position no server framing can cover for this
 * client (it then holds the id of an event it never got): that event, and only it, is missed.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { fetchEventSource, type EventSourceMessage } from '@microsoft/fetch-event-source';
import { Controller, type MessageEvent } from '@nestjs/common';
import type { AddressInfo } from 'node:net';
import { App, Route, Stream } from 'toolkit';
import { stallWatch, UNTIL_STALLED_MS } from '../../../test/support/stall-watch.js';
import { CUT_HEADER, CuttingProxy } from './support/cutting-proxy.js';

/** How long a batch of clients may take before the run counts as stuck, however loaded the machine. */
const STALL_MS = 60_000;

const EVENTS = 120;
const probe = { runs: 0 };

/** Event `i` as the route yields it: plain text, typed JSON, or two lines. */
function eventOf(i: number): string | MessageEvent {
  if (i % 7 === 0) return { type: 'tick', data: { n: i } };
  if (i % 11 === 0) return `line ${i}\nsecond line of ${i}`;
  return `event ${i}`;
}

/** What the client should read of event `i`. */
function expectedOf(i: number): string {
  const event = eventOf(i);
  if (typeof event === 'string') return `message|${event}`;
  return `${String(event.type)}|${JSON.stringify(event.data)}`;
}

@Controller()
class CountController {
  @Route('/count', { methods: ['POST'] })
  @Stream({ resumable: true })
  async *count(): AsyncGenerator<string | MessageEvent> {
    probe.runs += 1;
    for (let i = 1; i <= EVENTS; i += 1) yield eventOf(i);
  }
}

/** Where one frame sits in the body: `[start, end)`, and where its `id:` line starts. */
interface Frame {
  start: number;
  end: number;
  idLine: number;
}

function framesOf(body: Buffer): Frame[] {
  const frames: Frame[] = [];
  let start = 0;
  for (;;) {
    const blank = body.indexOf('\n\n', start);
    if (blank < 0) return frames;
    const end = blank + 2;
    const idLine = body.lastIndexOf('\nid: ', end) + 1;
    frames.push({ start, end, idLine });
    start = end;
  }
}

/** Frames whose every byte position is a cut point; the others are sampled. */
const EVERY_BYTE = new Set([1, 7, 11, EVENTS]);

/** The cut points: byte counts after which the first connection closes. */
function cutPoints(frames: Frame[]): number[] {
  const points = new Set<number>();
  frames.forEach((frame, index) => {
    const { start, end, idLine } = frame;
    if (EVERY_BYTE.has(index + 1)) {
      for (let at = start; at < end; at += 1) points.add(at);
      return;
    }
    // Every frame: its boundary and its last byte (after the id line, before the blank line).
    points.add(start).add(end - 1);
    // Every fifth: inside `event:`, mid-data, between data and id, inside id.
    if (index % 5 === 0) {
      for (const at of [start + 3, (start + idLine) >> 1, idLine, idLine + 4]) points.add(at);
    }
  });
  points.add(frames.at(-1)?.end ?? 0);
  return [...points].sort((a, b) => a - b);
}

/** Which event a cut at `at` leaves the client holding the id of without its blank line. */
function heldWithoutEvent(frames: Frame[], at: number): number | undefined {
  const index = frames.findIndex((frame) => frame.end - 1 === at);
  return index < 0 ? undefined : index + 1;
}

describe('@microsoft/fetch-event-source resuming a cut resumable stream', () => {
  const app = new App({ controllers: [CountController], logger: false, cwd: '/nonexistent' });
  let base: string;
  let proxy: CuttingProxy;
  let streamId: string;
  let frames: Frame[];
  let sized = false;
  const globals = globalThis as { window?: unknown; document?: unknown };

  beforeAll(async () => {
    // The client is written for browsers: it reaches timers through `window` and listens to
    // `document` (not at all with `openWhenHidden`, but it removes that listener at the end).
    globals.window = globalThis;
    globals.document = { addEventListener: () => undefined, removeEventListener: () => undefined };
    const server = await app.run({ host: '127.0.0.1', port: 0 });
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    proxy = await CuttingProxy.start(base);
    const first = await fetch(`${base}/count`, { method: 'POST', body: '{}' });
    streamId = first.headers.get('x-stream-id') ?? '';
    await first.text();
    // A bare stream id reads the stream from its start: the same bytes every client below reads.
    const whole = await fetch(`${base}/count`, {
      method: 'POST',
      body: '{}',
      headers: { 'last-event-id': streamId },
    });
    // Short enough to go in one write, the replay has a length: at its last byte nothing is cut.
    sized = whole.headers.has('content-length');
    frames = framesOf(Buffer.from(await whole.arrayBuffer()));
  });

  afterAll(async () => {
    await proxy.close();
    await app.close();
    delete globals.window;
    delete globals.document;
  });

  /**
   * One client whose first connection is cut after `at` body bytes, followed to the end: a clean
   * end of the response, or a `204` (the stream is over), which this client leaves to its
   * `onopen` and `onerror` (it has no body to read), as its documentation's `FatalError` does.
   */
  async function follow(at: number): Promise<{ received: string[]; opens: number }> {
    const received: string[] = [];
    let opens = 0;
    let failures = 0;
    const over = new Error('The stream is over (204)');
    const done = fetchEventSource(`${proxy.url}/count`, {
      method: 'POST',
      body: '{}',
      headers: {
        'content-type': 'application/json',
        'last-event-id': streamId,
        [CUT_HEADER]: `${at}:${at}`,
      },
      openWhenHidden: true,
      fetch: globalThis.fetch,
      onopen: (response) => {
        opens += 1;
        const type = response.headers.get('content-type') ?? '';
        if (response.status === 204) return Promise.reject(over);
        if (type.startsWith('text/event-stream')) return Promise.resolve();
        return Promise.reject(new Error(`Unexpected answer ${response.status}`));
      },
      onmessage: (message: EventSourceMessage) =>
        void received.push(`${message.event}|${message.data}`),
      onerror: (error: unknown) => {
        failures += 1;
        if (error === over || failures > 2) throw error;
        return 0; // reconnect at once
      },
    });
    await done.catch((error: unknown) => {
      if (error !== over) throw error;
    });
    return { received, opens };
  }

  it(
    'receives every event exactly once, wherever the connection is cut',
    async () => {
      expect(frames).toHaveLength(EVENTS);
      expect(frames[0]?.idLine).toBeGreaterThan(frames[0]?.start ?? 0);
      const points = cutPoints(frames);
      const all = Array.from({ length: EVENTS }, (_, i) => expectedOf(i + 1));
      const missed: number[] = [];
      // No total deadline (a loaded machine takes minutes): the run fails when a batch of clients
      // does not finish for STALL_MS instead.
      const progress = stallWatch(STALL_MS, 'the clients');
      try {
        for (let offset = 0; offset < points.length; offset += 32) {
          const batch = points.slice(offset, offset + 32);
          const results = await Promise.race([
            Promise.all(batch.map((at) => follow(at))),
            progress.stalled,
          ]);
          progress.moved(offset);
          results.forEach(({ received, opens }, index) => {
            const at = batch[index] ?? 0;
            const held = heldWithoutEvent(frames, at);
            const whole = sized && at === frames.at(-1)?.end;
            expect({ at, opens }).toEqual({ at, opens: whole ? 1 : 2 });
            const wanted = held === undefined ? all : all.filter((_, i) => i + 1 !== held);
            expect({ at, received }).toEqual({ at, received: wanted });
            if (held !== undefined) missed.push(held);
          });
        }
      } finally {
        progress.stop();
      }
      // One cut point per frame misses its event, and that only.
      expect(missed).toEqual(Array.from({ length: EVENTS }, (_, i) => i + 1));
      expect(points.length).toBeGreaterThan(EVENTS * 3);
      expect(probe.runs).toBe(1);
    },
    UNTIL_STALLED_MS,
  );
});
