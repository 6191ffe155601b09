/**
 * The span tree of a RAG question, exported over OTLP/HTTP (`http/json`) to the receiver of the
 * framework's tests: an `App` with `RagModule` (the local store in a temporary project folder,
 * OpenAI's `text-embedding-3-small` on the local fake provider server, so the query is embedded
 * by a real SDK call) answers `/ask` shaped like the RAG template's: the conversation read, the
 * retrieval (its embeddings call inside it), the model call, the turn written. The tree is
 * rendered by span-tree.ts and asserted as a literal, on Express and on Fastify.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Controller } from '@nestjs/common';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App, Arg, LLM, MemoryService, Route } from 'toolkit';
import { buildAskPrompt, DocumentIndex, RagModule } from 'toolkit/rag';
import { OtlpReceiver, type ReceivedSpan } from '../../framework/test/support/otlp-receiver.js';
import { renderSpanTree, spansUnder } from '../../framework/test/support/span-tree.js';
import {
  startFakeLlmServer,
  type FakeLlmServer,
} from '../../providers/test/support/fake-llm.server.js';

const SERVER = 2;
const CLIENT = 3;
const TEA = 'Green tea is steeped at 80 degrees Celsius for two minutes; boiling water burns it.';
const BIKES = 'A flat bicycle tyre is fixed with a rubber patch after finding the puncture.';

@Controller()
class AskController {
  constructor(
    private readonly index: DocumentIndex,
    private readonly llm: LLM,
    private readonly memory: MemoryService,
  ) {}

  @Route('/ask', { methods: ['POST'] })
  async ask(@Arg('session') session: string, @Arg('question') question: string) {
    const memory = this.memory.for(session);
    const history = await memory.toDictList({ maxTokens: 3000 });
    const results = await this.index.search(question, 2);
    const { system, prompt, sources } = buildAskPrompt(question, results);
    const answer = await this.llm.chat(prompt, { history, system });
    await memory.addTurn(question, answer);
    return { answer, sources: sources.length };
  }
}

/** Environment variables the tests set, restored at the end. */
const ENV_KEYS = [
  'OTEL_EXPORTER_OTLP_ENDPOINT',
  'OTEL_EXPORTER_OTLP_PROTOCOL',
  'OTEL_BSP_SCHEDULE_DELAY',
  'OPENAI_API_KEY',
  'OPENAI_BASE_URL',
];
const saved = Object.fromEntries(ENV_KEYS.map((key) => [key, process.env[key]]));

let receiver: OtlpReceiver;
let fake: FakeLlmServer;
const roots: string[] = [];

beforeAll(async () => {
  receiver = await OtlpReceiver.start();
  // The vectors of the model the configuration names (toolkit knows its dimensions).
  fake = await startFakeLlmServer({ embeddingDimensions: 1536 });
  Object.assign(process.env, {
    OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
    OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
    OTEL_BSP_SCHEDULE_DELAY: '20',
    OPENAI_API_KEY: 'sk-test',
    OPENAI_BASE_URL: fake.openaiBaseURL,
  });
});
afterAll(async () => {
  await fake.close();
  await receiver.close();
  for (const root of roots) rmSync(root, { recursive: true, force: true });
  for (const key of ENV_KEYS) {
    if (saved[key] === undefined) delete process.env[key];
    else process.env[key] = saved[key];
  }
});

/** A project folder with two documents in docs/documents (indexed when the app starts). */
function projectDir(): string {
  const root = mkdtempSync(join(tmpdir(), 'tk-tracing-rag-'));
  roots.push(root);
  mkdirSync(join(root, 'docs/documents'), { recursive: true });
  writeFileSync(join(root, 'docs/documents/tea.txt'), TEA);
  writeFileSync(join(root, 'docs/documents/bikes.txt'), BIKES);
  return root;
}

describe.each(['express', 'fastify'] as const)(
  'the span tree of a RAG question on %s',
  (platform) => {
    let app: App;
    let base: string;

    beforeAll(async () => {
      app = new App({
        platform,
        controllers: [AskController],
        imports: [RagModule.forRoot()],
        logger: false,
        cwd: projectDir(),
        config: {
          llm: { default_model: 'gpt-4o-mini' },
          rag: { embeddings: 'text-embedding-3-small', store: 'local' },
          telemetry: { enabled: true, service_name: 'rag-trees' },
        },
      });
      const server = await app.run({ host: '127.0.0.1', port: 0, announce: false });
      base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });
    afterAll(async () => {
      await app.close();
    });

    it('the retrieval with its query embedding, then the model call, under the server span', async () => {
      fake.reset();
      fake.script({
        when: { api: 'openai-chat' },
        kind: 'reply',
        text: 'Steep it at 80 degrees [1].',
        usage: { input: 40, output: 6 },
      });
      const res = await fetch(`${base}/ask`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          session: platform,
          question: 'How hot should green tea be steeped?',
        }),
      });
      expect({ status: res.status, body: await res.json() }).toEqual({
        status: 200,
        body: { answer: 'Steep it at 80 degrees [1].', sources: 1 },
      });
      const requestId = res.headers.get('x-request-id');
      const rootOf = (all: readonly ReceivedSpan[]) =>
        all.find((s) => s.kind === SERVER && s.attributes['toolkit.request.id'] === requestId);
      const spans = await receiver.waitForSpans((all) => {
        const root = rootOf(all);
        return !!root && spansUnder(all, root).some((s) => s.name === 'toolkit.memory.add');
      });
      const root = rootOf(spans) as ReceivedSpan;
      expect(renderSpanTree(spans, root)).toEqual(
        [
          'POST /ask',
          '  toolkit.memory.load',
          '  toolkit.rag.retrieve',
          '    embeddings text-embedding-3-small',
          '  chat gpt-4o-mini',
          '  toolkit.memory.add',
        ].join('\n'),
      );
      const [, retrieve, embeddings, chat] = spansUnder(spans, root);
      expect(root.attributes['http.route']).toBe('/ask');
      expect(retrieve.attributes).toMatchObject({
        'toolkit.rag.top_k': 2,
        'toolkit.rag.results': 1,
      });
      expect(embeddings).toMatchObject({
        kind: CLIENT,
        attributes: expect.objectContaining({
          'gen_ai.operation.name': 'embeddings',
          'gen_ai.provider.name': 'openai',
          'gen_ai.request.model': 'text-embedding-3-small',
        }) as unknown,
      });
      expect(chat).toMatchObject({
        kind: CLIENT,
        attributes: expect.objectContaining({
          'gen_ai.provider.name': 'openai',
          'gen_ai.usage.input_tokens': 40,
          'gen_ai.usage.output_tokens': 6,
          'gen_ai.response.finish_reasons': ['stop'],
        }) as unknown,
      });
    });
  },
);
