/**
 * The whole span tree of an agent request, exported over OTLP/HTTP (`http/json`) to the
 * receiver in support/otlp-receiver.ts, for the OpenAI, Anthropic and an OpenAI-compatible
 * provider (Ollama), each a real SDK client against the local fake provider server. The route is
 * shaped like the agent template's `/chat/stream`: the conversation memory read, a streamed
 * tool-using answer (`llm.streamEvents`), the turn written back (`recordTurn`). A `@Cache`d
 * streamed route shows a miss that calls the model, then a hit replayed without it. Each tree is
 * rendered by support/span-tree.ts and asserted as a literal. Runs on Express and on Fastify.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Controller } from '@nestjs/common';
import type { AddressInfo } from 'node:net';
import {
  App,
  Arg,
  Cache,
  LLM,
  MemoryService,
  recordTurn,
  Route,
  Stream,
  ToolRegistry,
} from 'toolkit';
import {
  startFakeLlmServer,
  type FakeLlmServer,
} from '../../providers/test/support/fake-llm.server.js';
import { AddingTools } from './fixtures/adding-tools.js';
import { OtlpReceiver, type ReceivedSpan } from './support/otlp-receiver.js';
import { renderSpanTree, spansUnder } from './support/span-tree.js';

const SERVER = 2;
const CLIENT = 3;
const INTERNAL = 1;

@Controller()
class AgentController {
  constructor(
    private readonly llm: LLM,
    private readonly memory: MemoryService,
    private readonly tools: ToolRegistry,
  ) {}

  @Route('/chat/stream', { methods: ['POST'] })
  @Stream()
  async chatStream(@Arg('conversation') conversation: string, @Arg('message') message: string) {
    const memory = this.memory.for(conversation);
    const history = await memory.toDictList({ maxTokens: 3000 });
    const events = await this.llm.streamEvents(message, {
      history,
      system: 'Use the calculator for arithmetic.',
      tools: this.tools.all(),
    });
    return recordTurn(memory, message, events);
  }

  @Route('/summary', { methods: ['POST'] })
  @Stream()
  @Cache({ ttl: 60 })
  async *summary(@Arg('text') text: string) {
    yield* await this.llm.chat(`Summarise: ${text}`, { stream: true });
  }
}

/** Environment variables the tests set, restored at the end. */
const ENV_KEYS = [
  'OTEL_EXPORTER_OTLP_ENDPOINT',
  'OTEL_EXPORTER_OTLP_PROTOCOL',
  'OTEL_BSP_SCHEDULE_DELAY',
  'OPENAI_API_KEY',
  'OPENAI_BASE_URL',
  'ANTHROPIC_API_KEY',
  'ANTHROPIC_BASE_URL',
  'OLLAMA_BASE_URL',
];
const saved = Object.fromEntries(ENV_KEYS.map((key) => [key, process.env[key]]));

function restoreEnv(): void {
  for (const key of ENV_KEYS) {
    if (saved[key] === undefined) delete process.env[key];
    else process.env[key] = saved[key];
  }
}

let receiver: OtlpReceiver;
let fake: FakeLlmServer;

beforeAll(async () => {
  receiver = await OtlpReceiver.start();
  fake = await startFakeLlmServer();
  Object.assign(process.env, {
    OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
    OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
    OTEL_BSP_SCHEDULE_DELAY: '20',
    OPENAI_API_KEY: 'sk-test',
    OPENAI_BASE_URL: fake.openaiBaseURL,
    ANTHROPIC_API_KEY: 'sk-ant-test',
    ANTHROPIC_BASE_URL: fake.anthropicBaseURL,
    OLLAMA_BASE_URL: fake.openaiBaseURL,
  });
});
afterAll(async () => {
  await fake.close();
  await receiver.close();
  restoreEnv();
});

/** POSTs `body` and reads the whole answer (an SSE stream here). */
async function post(base: string, path: string, body: unknown): Promise<Response> {
  const res = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  await res.clone().arrayBuffer();
  return res;
}

/**
 * Waits for the server span of the request with `requestId` and for every span named in
 * `names` in its trace, then returns all spans received and that server span.
 */
async function traceOf(requestId: string | null, names: readonly string[]) {
  const rootOf = (all: readonly ReceivedSpan[]) =>
    all.find((s) => s.kind === SERVER && s.attributes['toolkit.request.id'] === requestId);
  const spans = await receiver.waitForSpans((all) => {
    const root = rootOf(all);
    if (root === undefined) return false;
    const under = spansUnder(all, root).map((s) => s.name);
    return names.every((name) => under.includes(name));
  });
  return { spans, root: rootOf(spans) as ReceivedSpan };
}

describe.each([
  { label: 'OpenAI', model: 'gpt-4o-mini', wire: 'gpt-4o-mini', provider: 'openai' },
  {
    label: 'Anthropic',
    model: 'claude-3-5-haiku-latest',
    wire: 'claude-3-5-haiku-latest',
    provider: 'anthropic',
  },
  {
    label: 'OpenAI-compatible (Ollama)',
    model: 'ollama/llama3.2',
    wire: 'llama3.2',
    provider: 'ollama',
  },
])('the span tree of a traced app on $label', ({ model, wire, provider }) => {
  let app: App;
  let base: string;
  const chat = `chat ${wire}`;

  beforeAll(async () => {
    app = new App({
      controllers: [AgentController],
      providers: [AddingTools],
      logger: false,
      cwd: '/nonexistent',
      config: {
        llm: { default_model: model },
        telemetry: { enabled: true, service_name: 'trees' },
      },
    });
    const server = await app.run({ host: '127.0.0.1', port: 0, announce: false });
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await app.close();
  });

  it('a streamed, tool-using agent turn: memory, the agent loop and its steps in one trace', async () => {
    fake.reset();
    fake.script(
      {
        kind: 'reply',
        toolCalls: [{ id: 'call_1', name: 'add', arguments: { a: 2, b: 3 } }],
        usage: { input: 10, output: 5 },
      },
      { kind: 'reply', text: 'It is 5.', usage: { input: 20, output: 3 } },
    );
    const res = await post(base, '/chat/stream', {
      conversation: `trees-${provider}`,
      message: 'What is 2 + 3?',
    });
    expect(res.status).toBe(200);
    const events = (await res.text()).match(/^event: .+$/gm);
    expect(events).toEqual(
      ['tool-call', 'tool-result', 'text-delta', 'text-delta', 'text-delta', 'finish'].map(
        (type) => `event: ${type}`,
      ),
    );
    const { spans, root } = await traceOf(res.headers.get('x-request-id'), [
      'toolkit.memory.add',
      'execute_tool add',
    ]);

    expect(renderSpanTree(spans, root)).toEqual(
      [
        'POST /chat/stream',
        '  toolkit.memory.load',
        '  invoke_agent toolkit',
        `    ${chat}`,
        '    execute_tool add',
        `    ${chat}`,
        '  toolkit.memory.add',
      ].join('\n'),
    );
    const [load, agent, step1, tool, step2, add] = spansUnder(spans, root);
    expect(new Set([root, ...spansUnder(spans, root)].map((s) => s.traceId)).size).toBe(1);
    expect(root).toMatchObject({
      kind: SERVER,
      parentSpanId: '',
      attributes: expect.objectContaining({
        'http.route': '/chat/stream',
        'http.response.status_code': 200,
      }) as unknown,
    });
    expect(load).toMatchObject({
      kind: INTERNAL,
      attributes: { 'toolkit.memory.backend': 'memory', 'toolkit.memory.messages': 0 },
    });
    expect(agent).toMatchObject({
      kind: INTERNAL,
      attributes: {
        'gen_ai.operation.name': 'invoke_agent',
        'gen_ai.provider.name': provider,
        'gen_ai.request.model': wire,
        'gen_ai.usage.input_tokens': 30,
        'gen_ai.usage.output_tokens': 8,
        'toolkit.llm.steps': 2,
      },
    });
    const stepAttributes = (input: number, output: number, finish: string) => ({
      kind: CLIENT,
      attributes: expect.objectContaining({
        'gen_ai.operation.name': 'chat',
        'gen_ai.provider.name': provider,
        'gen_ai.request.model': wire,
        'gen_ai.request.stream': true,
        'gen_ai.usage.input_tokens': input,
        'gen_ai.usage.output_tokens': output,
        'gen_ai.response.finish_reasons': [finish],
      }) as unknown,
    });
    expect(step1).toMatchObject(stepAttributes(10, 5, 'tool_call'));
    expect(step2).toMatchObject(stepAttributes(20, 3, 'stop'));
    expect(tool).toMatchObject({
      kind: INTERNAL,
      attributes: { 'gen_ai.tool.name': 'add', 'gen_ai.tool.call.id': 'call_1' },
    });
    expect(add).toMatchObject({
      kind: INTERNAL,
      attributes: {
        'toolkit.memory.backend': 'memory',
        'toolkit.memory.messages': 2,
        'toolkit.memory.tool_steps': 1,
      },
    });
  });

  it('a cached streamed route: a miss calls the model, the hit replays without it', async () => {
    fake.reset();
    fake.script({ kind: 'reply', text: 'Short and sweet.', usage: { input: 7, output: 3 } });
    const body = { text: `A long text for ${provider}.` };
    const miss = await post(base, '/summary', body);
    expect(miss.headers.get('x-cache')).toBe('MISS');
    const first = await traceOf(miss.headers.get('x-request-id'), ['toolkit.cache.set', chat]);
    expect(renderSpanTree(first.spans, first.root)).toEqual(
      ['POST /summary', '  toolkit.cache.get', `  ${chat}`, '  toolkit.cache.set'].join('\n'),
    );
    const [get, step] = spansUnder(first.spans, first.root);
    expect(get.attributes).toMatchObject({
      'toolkit.cache.hit': false,
      'toolkit.cache.backend': 'memory',
    });
    expect(step.attributes).toMatchObject({
      'gen_ai.usage.input_tokens': 7,
      'gen_ai.usage.output_tokens': 3,
    });

    const hit = await post(base, '/summary', body);
    expect(hit.headers.get('x-cache')).toBe('HIT');
    expect(await hit.text()).toEqual(await miss.text());
    const second = await traceOf(hit.headers.get('x-request-id'), ['toolkit.cache.replay']);
    expect(renderSpanTree(second.spans, second.root)).toEqual(
      ['POST /summary', '  toolkit.cache.get', '  toolkit.cache.replay'].join('\n'),
    );
    expect(spansUnder(second.spans, second.root)[0].attributes['toolkit.cache.hit']).toBe(true);
    expect(fake.requests).toHaveLength(1);
  });
});
