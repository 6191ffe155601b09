import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { Controller, Injectable } from '@nestjs/common';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { App, Arg, LLM, RequestSignal, Route, Stream, Tool, ToolRegistry } from 'toolkit';
import type { ToolContext } from 'toolkit';
import { TestClient } from 'toolkit/testing';
import {
  startFakeLlmServer,
  type FakeLlmServer,
} from '../../providers/test/support/fake-llm.server.js';

@Injectable()
class NotesService {
  readonly notes = new Map([['shopping', 'milk, eggs']]);
}

const probe = {
  waitAborted: false,
  waitStarted: () => undefined as void,
  onAbort: () => undefined as void,
};

@Injectable()
class AgentTools {
  constructor(private readonly notes: NotesService) {}

  @Tool({
    description: 'Adds two numbers',
    parameters: {
      type: 'object',
      properties: { a: { type: 'number' }, b: { type: 'number' } },
      required: ['a', 'b'],
    },
  })
  add({ a, b }: { a: number; b: number }) {
    return { sum: a + b };
  }

  @Tool({
    name: 'read_note',
    description: 'Reads a note by title',
    parameters: { type: 'object', properties: { title: { type: 'string' } }, required: ['title'] },
  })
  readNote({ title }: { title: string }) {
    return this.notes.notes.get(title) ?? 'no such note';
  }

  @Tool({ description: 'Waits until cancelled', parameters: { type: 'object' } })
  wait(_args: unknown, { signal }: ToolContext) {
    probe.waitStarted();
    return new Promise((_, reject) =>
      signal.addEventListener('abort', () => {
        probe.waitAborted = true;
        probe.onAbort();
        reject(new Error('cancelled'));
      }),
    );
  }

  notATool() {
    return 'never offered';
  }
}

@Controller()
class AgentController {
  constructor(
    private readonly llm: LLM,
    private readonly tools: ToolRegistry,
  ) {}

  @Route('/agent', { methods: ['POST'] })
  async agent(@Arg('message') message: string) {
    const { text, steps, finishReason } = await this.llm.generate(message, {
      tools: this.tools.all(),
    });
    return { text, finishReason, steps: steps.map((s) => s.toolCalls) };
  }

  @Route('/agent/stream', { methods: ['POST'] })
  @Stream()
  async *stream(@Arg('message') message: string, @RequestSignal() signal: AbortSignal) {
    yield* await this.llm.streamEvents(message, { tools: this.tools.pick('add', 'wait'), signal });
  }

  @Route('/agent/pick', { methods: ['POST'] })
  pick(@Arg('name') name: string) {
    return { names: this.tools.pick(name).map((t) => t.name) };
  }
}

describe('@Tool() methods collected by ToolRegistry, events relayed by @Stream', () => {
  let fake: FakeLlmServer;
  let app: App;

  beforeAll(async () => {
    fake = await startFakeLlmServer();
    app = new App({
      controllers: [AgentController],
      providers: [NotesService, AgentTools],
      logger: false,
      cwd: '/nonexistent',
      config: { llm: { default_model: 'gpt-4o-mini' } },
    });
    process.env.OPENAI_API_KEY = 'sk-test';
    process.env.OPENAI_BASE_URL = fake.openaiBaseURL;
  });
  beforeEach(() => fake.reset());
  afterAll(async () => {
    await app.close();
    await fake.close();
    delete process.env.OPENAI_API_KEY;
    delete process.env.OPENAI_BASE_URL;
  });

  it('offers every @Tool() method and runs them with their injected services', async () => {
    fake.script(
      {
        kind: 'reply',
        toolCalls: [
          { id: 'a', name: 'add', arguments: { a: 2, b: 2 } },
          { id: 'n', name: 'read_note', arguments: { title: 'shopping' } },
        ],
      },
      { kind: 'reply', text: '4; buy milk and eggs.' },
    );
    const res = await new TestClient(app).post('/agent', { json: { message: 'Go' } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      text: '4; buy milk and eggs.',
      finishReason: 'stop',
      steps: [
        [
          { id: 'a', name: 'add', args: { a: 2, b: 2 }, result: { sum: 4 } },
          { id: 'n', name: 'read_note', args: { title: 'shopping' }, result: 'milk, eggs' },
        ],
        [],
      ],
    });
    const offered = (fake.requests[0].body.tools as { function: { name: string } }[]).map(
      (t) => t.function.name,
    );
    expect(offered).toEqual(['add', 'read_note', 'wait']);
  });

  it('relays text deltas, tool-call, tool-result and finish as SSE events of their own type', async () => {
    fake.script(
      { kind: 'reply', toolCalls: [{ id: 'c', name: 'add', arguments: { a: 1, b: 2 } }] },
      { kind: 'reply', chunks: ['It is ', '3.'] },
    );
    const res = await new TestClient(app).post('/agent/stream', { json: { message: '1+2?' } });
    const events = res.events();
    expect(events.map((e) => e.event)).toEqual([
      'tool-call',
      'tool-result',
      'text-delta',
      'text-delta',
      'finish',
    ]);
    expect(JSON.parse(events[0].data)).toEqual({ id: 'c', name: 'add', args: { a: 1, b: 2 } });
    expect(JSON.parse(events[1].data)).toEqual({ id: 'c', name: 'add', result: { sum: 3 } });
    expect(events.slice(2, 4).map((e) => e.data)).toEqual(['It is ', '3.']);
    expect(JSON.parse(events[4].data)).toMatchObject({ finishReason: 'stop', steps: 2 });
  });

  it('aborts the running tool when the SSE client disconnects mid tool step', async () => {
    probe.waitAborted = false;
    const started = new Promise<void>((resolve) => (probe.waitStarted = resolve));
    const aborted = new Promise<void>((resolve) => (probe.onAbort = resolve));
    fake.script({ kind: 'reply', toolCalls: [{ name: 'wait', arguments: {} }] });
    const server = await app.run({ host: '127.0.0.1', port: 0 });
    const { port } = server.address() as AddressInfo;
    const res = await new Promise<IncomingMessage>((resolve, reject) => {
      const req = httpRequest(
        {
          host: '127.0.0.1',
          port,
          path: '/agent/stream',
          method: 'POST',
          headers: { 'content-type': 'application/json' },
        },
        resolve,
      );
      req.on('error', reject);
      req.end(JSON.stringify({ message: 'Wait' }));
    });
    await started;
    expect(probe.waitAborted).toBe(false);
    const closed = new Promise((resolve) => res.once('close', resolve));
    res.destroy();
    await closed;
    await aborted;
    expect(probe.waitAborted).toBe(true);
    expect(fake.requests).toHaveLength(1);
  });

  it('pick() refuses a name that is not a @Tool() method, naming the tools', async () => {
    const res = await new TestClient(app).post('/agent/pick', { json: { name: 'notATool' } });
    expect(res.statusCode).toBe(500);
    const ok = await new TestClient(app).post('/agent/pick', { json: { name: 'read_note' } });
    expect(ok.json()).toEqual({ names: ['read_note'] });
  });

  it('stops start-up when a @Tool() schema is not valid JSON Schema, naming the method', async () => {
    @Injectable()
    class BadTools {
      @Tool({
        description: 'Broken',
        parameters: { type: 'object', properties: { a: { type: 'nope' } } },
      })
      broken() {
        return 1;
      }
    }
    const bad = new App({ providers: [BadTools], logger: false, cwd: '/nonexistent' });
    await expect(bad.init()).rejects.toThrow(
      /Invalid configuration: parameters is not a valid JSON Schema: .* in @Tool\(\) BadTools\.broken/,
    );
    // Nothing started: closing only settles the failed start.
    await bad.close().catch(() => undefined);
  });
});
