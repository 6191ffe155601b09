/**
 * The model routes of the chatbot, agent and rag templates have limits by default (issue 26):
 * a rate limit per session and per client address (429 + Retry-After), the session passed as
 * `userId` so `llm.budget` applies, a length limit on every text parameter, and resumable
 * streams that belong to their session (a stream id alone reads and stops nothing).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App, HealthController, type ToolkitConfigInput } from 'toolkit';
import { RagModule } from 'toolkit/rag';
import {
  startFakeLlmServer,
  type FakeLlmServer,
} from '../../libs/providers/test/support/fake-llm.server.js';
import { AgentController } from '../../templates/agent/src/agent.controller.js';
import { ChatController as AgentChatController } from '../../templates/agent/src/chat.controller.js';
import { stylesProvider } from '../../templates/agent/src/styles.js';
import { ChatController } from '../../templates/chatbot/src/chat.controller.js';
import { RagController } from '../../templates/rag/src/rag.controller.js';

/** A template's app, its model route and every text parameter with its longest accepted length. */
interface TemplateUnderTest {
  name: string;
  create(root: string, config: ToolkitConfigInput): App;
  path: string;
  field: 'message' | 'question';
  streamPath?: string;
  texts: { path: string; field: string; maxLength: number; body?: Record<string, unknown> }[];
}

const TEA = 'Green tea is not oxidised; black tea is fully oxidised. Tea is dried leaves.\n';
const base = { logger: false as const, cwd: '/nonexistent', version: '0.1.0' };

const TEMPLATES: TemplateUnderTest[] = [
  {
    name: 'chatbot',
    create: (_root, config) =>
      new App({ ...base, controllers: [HealthController, ChatController], config }),
    path: '/chat',
    field: 'message',
    streamPath: '/chat/stream',
    texts: [
      { path: '/chat', field: 'message', maxLength: 20_000 },
      { path: '/chat/stream', field: 'message', maxLength: 20_000 },
      { path: '/chat', field: 'user_id', maxLength: 200, body: { message: 'hi' } },
      { path: '/clear', field: 'user_id', maxLength: 200 },
    ],
  },
  {
    name: 'agent',
    create: (_root, config) =>
      new App({
        ...base,
        controllers: [HealthController, AgentController, AgentChatController],
        providers: [stylesProvider],
        config,
      }),
    path: '/chat',
    field: 'message',
    streamPath: '/chat/stream',
    texts: [
      { path: '/analyze', field: 'text', maxLength: 20_000 },
      { path: '/generate', field: 'prompt', maxLength: 20_000 },
      { path: '/generate', field: 'style', maxLength: 100, body: { prompt: 'hi' } },
      { path: '/chat', field: 'message', maxLength: 20_000 },
      { path: '/chat/stream', field: 'message', maxLength: 20_000 },
      { path: '/chat', field: 'user_id', maxLength: 200, body: { message: 'hi' } },
    ],
  },
  {
    name: 'rag',
    create: (root, config) => {
      mkdirSync(join(root, 'docs/documents'), { recursive: true });
      writeFileSync(join(root, 'docs/documents/tea.txt'), TEA);
      return new App({
        ...base,
        cwd: root,
        controllers: [HealthController, RagController],
        imports: [RagModule.forRoot()],
        config: {
          ...config,
          rag: {
            embeddings: 'offline',
            documents_dir: join(root, 'docs/documents'),
            index_dir: join(root, '.toolkit/index'),
            min_keyword_coverage: 0,
            min_similarity: 0,
          },
        },
      });
    },
    path: '/ask',
    field: 'question',
    texts: [
      { path: '/ask', field: 'question', maxLength: 4000 },
      { path: '/ask/stream', field: 'question', maxLength: 4000 },
    ],
  },
];

const KEYS = ['OPENAI_API_KEY', 'OPENAI_BASE_URL'] as const;
/** 10 input tokens at $2.3M per 1M tokens: $23 a call, as in the finding. */
const PRICED = {
  default_model: 'gpt-4o-mini',
  max_retries: 0,
  prices: { 'gpt-4o-mini': { input: 2_300_000, output: 0 } },
};

describe.each(TEMPLATES)('the $name template limits its model calls', (template) => {
  let fake: FakeLlmServer;
  const saved: Partial<Record<(typeof KEYS)[number], string>> = {};
  const open: { app: App; close(): Promise<void> }[] = [];

  beforeAll(async () => {
    fake = await startFakeLlmServer();
    for (const key of KEYS) saved[key] = process.env[key];
    process.env.OPENAI_API_KEY = 'sk-test-limits';
    process.env.OPENAI_BASE_URL = fake.openaiBaseURL;
  });
  beforeEach(() => fake.reset());
  afterAll(async () => {
    for (const served of open) await served.close();
    await fake.close();
    for (const key of KEYS) {
      if (saved[key] === undefined) delete process.env[key];
      else process.env[key] = saved[key];
    }
  });

  /** Starts the template on 127.0.0.1 with `config`; returns its base URL. */
  async function start(config: ToolkitConfigInput): Promise<string> {
    const root = mkdtempSync(join(tmpdir(), `toolkit-limits-${template.name}-`));
    const app = template.create(root, { llm: PRICED, ...config });
    const server = await app.run({ host: '127.0.0.1', port: 0 });
    open.push({
      app,
      close: async () => {
        server.closeAllConnections();
        await app.close();
        rmSync(root, { recursive: true, force: true });
      },
    });
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  function post(url: string, path: string, body: object, headers: Record<string, string> = {}) {
    return fetch(`${url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });
  }

  /** A session cookie of `url` (from a route that calls no model). */
  async function session(url: string): Promise<string> {
    const res = await fetch(`${url}/clear`, { method: 'POST' });
    return (res.headers.get('set-cookie') ?? '').split(';')[0];
  }

  it('answers 429 with Retry-After past limits.session_requests; another session goes on', async () => {
    const url = await start({ limits: { session_requests: 2, address_requests: 0 } });
    const cookie = await session(url);
    const ask = () => post(url, template.path, { [template.field]: 'tea?' }, { cookie });
    const statuses = [(await ask()).status, (await ask()).status];
    const refused = await ask();
    expect([...statuses, refused.status]).toEqual([200, 200, 429]);
    expect(await refused.json()).toEqual({
      error: expect.stringMatching(
        /^Rate limit exceeded for this session: at most 2 requests per 60 s; try again in \d+ s$/,
      ),
      retry_after: expect.any(Number),
    });
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(fake.requests).toHaveLength(2);
    const other = await post(
      url,
      template.path,
      { [template.field]: 'tea?' },
      {
        cookie: await session(url),
      },
    );
    expect(other.status).toBe(200);
  });

  it('counts per client address too: dropping the cookie does not reset the limit', async () => {
    const url = await start({ limits: { session_requests: 100, address_requests: 3 } });
    const statuses: number[] = [];
    for (let i = 0; i < 5; i += 1) {
      statuses.push((await post(url, template.path, { [template.field]: 'tea?' })).status);
    }
    expect(statuses).toEqual([200, 200, 200, 429, 429]);
    const refused = await post(url, template.path, { [template.field]: 'tea?' });
    expect(((await refused.json()) as { error: string }).error).toMatch(/for this address/);
    expect(fake.requests).toHaveLength(3);
  });

  it('makes each model call for the session, so llm.budget applies ($23 a call, $0.01 a day)', async () => {
    const url = await start({
      llm: { ...PRICED, budget: { per_user_usd_per_day: 0.01 } },
    });
    for (let i = 0; i < 5; i += 1) {
      fake.script({ kind: 'reply', text: 'An answer.', usage: { input: 10, output: 0 } });
    }
    const cookie = await session(url);
    const statuses: number[] = [];
    for (let i = 0; i < 5; i += 1) {
      const res = await post(url, template.path, { [template.field]: 'tea?' }, { cookie });
      statuses.push(res.status);
      if (res.status === 429) {
        expect(((await res.json()) as { error: string }).error).toMatch(/daily LLM budget/);
      }
    }
    expect(statuses).toEqual([200, 429, 429, 429, 429]);
    expect(fake.requests).toHaveLength(1);
  });

  it('refuses every text parameter past its length with 422 naming it, before the model', async () => {
    const url = await start({ limits: { session_requests: 0, address_requests: 0 } });
    for (const text of template.texts) {
      const body = { ...text.body, [text.field]: 'x'.repeat(text.maxLength + 1) };
      const res = await post(url, text.path, body);
      expect({ path: text.path, field: text.field, status: res.status }).toEqual({
        path: text.path,
        field: text.field,
        status: 422,
      });
      expect(JSON.stringify(await res.json())).toContain(text.field);
    }
    expect(fake.requests).toHaveLength(0);
  });

  if (template.streamPath !== undefined) {
    const streamPath = template.streamPath;

    it('gives a stream to its session only: its id alone neither reads nor stops it', async () => {
      fake.script({ kind: 'reply', chunks: ['one ', 'two ', 'three'], chunkDelayMs: 200 });
      const url = await start({});
      const cookie = await session(url);
      const started = await post(url, streamPath, { message: 'count' }, { cookie });
      expect(started.status).toBe(200);
      const id = started.headers.get('x-stream-id') ?? '';
      expect(id).not.toBe('');
      const stranger = await post(url, streamPath, { message: 'x' }, { 'last-event-id': id });
      expect(stranger.status).toBe(404);
      const strangerStop = await fetch(`${url}/streams/${id}`, { method: 'DELETE' });
      expect(strangerStop.status).toBe(404);
      const owner = await post(url, streamPath, { message: 'x' }, { 'last-event-id': id, cookie });
      expect(owner.status).toBe(200);
      await owner.body?.cancel();
      const ownerStop = await fetch(`${url}/streams/${id}`, {
        method: 'DELETE',
        headers: { cookie },
      });
      expect(ownerStop.status).toBe(204);
      await started.text();
    });
  }
});
