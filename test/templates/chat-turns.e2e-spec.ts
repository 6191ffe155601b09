import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App, HealthController, SESSION_COOKIE } from 'toolkit';
import type { MemoryMessage } from 'toolkit/providers';
import { RagModule } from 'toolkit/rag';
import { parseSse } from 'toolkit/testing';
import {
  startFakeLlmServer,
  type FakeLlmServer,
} from '../../libs/providers/test/support/fake-llm.server.js';
import { AgentController } from '../../templates/agent/src/agent.controller.js';
import { ChatController as AgentChatController } from '../../templates/agent/src/chat.controller.js';
import { stylesProvider } from '../../templates/agent/src/styles.js';
import { ChatController } from '../../templates/chatbot/src/chat.controller.js';
import { RagController } from '../../templates/rag/src/rag.controller.js';

/** A template's app and where its conversation turns are asked and stored. */
interface TemplateUnderTest {
  name: string;
  create(root: string): App;
  /** The one-answer route and its streaming twin. */
  path: string;
  streamPath: string;
  /** The body field that carries the user's message. */
  field: 'message' | 'question';
  /** The SSE event type of the answer's text (`text-delta` where tool events come too). */
  textEvent: 'message' | 'text-delta';
  /** The memory key of a session's (default) conversation. */
  key(session: string): string;
}

const TEA =
  'Hi! Tell me everything about tea, and I will. Green tea is made from leaves that are not ' +
  'oxidised; black tea is fully oxidised. Tea is made by picking, withering, rolling and drying.\n';

const LLM_CONFIG = { default_model: 'gpt-4o-mini', max_retries: 0 };
const base = { logger: false as const, cwd: '/nonexistent', version: '0.1.0' };

const TEMPLATES: TemplateUnderTest[] = [
  {
    name: 'chatbot',
    create: () =>
      new App({
        ...base,
        controllers: [HealthController, ChatController],
        config: { llm: LLM_CONFIG },
      }),
    path: '/chat',
    streamPath: '/chat/stream',
    field: 'message',
    textEvent: 'message',
    key: (session) => `${session}/me`,
  },
  {
    name: 'agent',
    create: () =>
      new App({
        ...base,
        controllers: [HealthController, AgentController, AgentChatController],
        providers: [stylesProvider],
        config: { llm: LLM_CONFIG },
      }),
    path: '/chat',
    streamPath: '/chat/stream',
    field: 'message',
    textEvent: 'text-delta',
    key: (session) => `${session}/me`,
  },
  {
    name: 'rag',
    create: (root) => {
      // A document for the questions to find: with no source, /ask answers without the model.
      mkdirSync(join(root, 'docs/documents'), { recursive: true });
      writeFileSync(join(root, 'docs/documents/tea.txt'), TEA);
      return new App({
        ...base,
        cwd: root,
        controllers: [HealthController, RagController],
        imports: [RagModule.forRoot()],
        config: {
          llm: LLM_CONFIG,
          rag: {
            embeddings: 'offline',
            documents_dir: join(root, 'docs/documents'),
            index_dir: join(root, '.toolkit/index'),
            // These tests are about memory, not retrieval: every question finds the document.
            min_keyword_coverage: 0,
            min_similarity: 0,
          },
        },
      });
    },
    path: '/ask',
    streamPath: '/ask/stream',
    field: 'question',
    textEvent: 'message',
    key: (session) => session,
  },
];

const KEYS = ['OPENAI_API_KEY', 'OPENAI_BASE_URL'] as const;

/** Polls until `check` holds (a stopped stream is committed once the server saw the client go). */
async function eventually(check: () => Promise<boolean>, what: string): Promise<void> {
  for (let attempt = 0; attempt < 200; attempt++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`never happened: ${what}`);
}

/** How many times `text` occurs in `haystack`. */
const occurrences = (haystack: string, text: string) => haystack.split(text).length - 1;

describe.each(TEMPLATES)('the $name template commits conversation turns exactly', (template) => {
  let fake: FakeLlmServer;
  let app: App;
  let server: Server;
  let url: string;
  const root = mkdtempSync(join(tmpdir(), `toolkit-turns-${template.name}-`));
  const saved: Partial<Record<(typeof KEYS)[number], string>> = {};

  beforeAll(async () => {
    fake = await startFakeLlmServer();
    for (const key of KEYS) saved[key] = process.env[key];
    process.env.OPENAI_API_KEY = 'sk-test-turns';
    process.env.OPENAI_BASE_URL = fake.openaiBaseURL;
    app = template.create(root);
    server = await app.run({ host: '127.0.0.1', port: 0 });
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  beforeEach(() => fake.reset());
  afterAll(async () => {
    server.closeAllConnections();
    await app.close();
    await fake.close();
    rmSync(root, { recursive: true, force: true });
    for (const key of KEYS) {
      if (saved[key] === undefined) delete process.env[key];
      else process.env[key] = saved[key];
    }
  });

  /** A fresh session: its cookie and the memory key of its conversation. */
  async function newSession(): Promise<{ cookie: string; key: string }> {
    const res = await fetch(`${url}/clear`, { method: 'POST' });
    expect(res.status).toBe(200);
    const cookie = (res.headers.get('set-cookie') ?? '').split(';')[0];
    expect(cookie).toMatch(new RegExp(`^${SESSION_COOKIE}=`));
    const id = cookie.slice(SESSION_COOKIE.length + 1).split('.')[0];
    return { cookie, key: template.key(`session:${id}`) };
  }

  function ask(path: string, cookie: string, text: string, signal?: AbortSignal) {
    return fetch(`${url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie },
      body: JSON.stringify({ [template.field]: text }),
      signal,
    });
  }

  const stored = async (key: string): Promise<MemoryMessage[]> => app.memory(key).toDictList();
  const turns = async (key: string) =>
    (await stored(key)).map(({ role, content, metadata }) => ({ role, content, metadata }));

  it('commits nothing on a 429 before the first token; the retry stores the turn once', async () => {
    const { cookie, key } = await newSession();
    fake.script({ kind: 'error', status: 429, headers: { 'retry-after': '1' } });
    expect((await ask(template.path, cookie, 'What is green tea?')).status).toBe(429);
    expect(await stored(key)).toEqual([]);

    const retry = await ask(template.path, cookie, 'What is green tea?');
    expect(retry.status).toBe(200);
    expect(await turns(key)).toEqual([
      { role: 'user', content: 'What is green tea?', metadata: undefined },
      { role: 'assistant', content: 'Hello from the fake server.', metadata: undefined },
    ]);
    // The model saw the question once: the failed attempt left nothing in the history.
    const sent = JSON.stringify(fake.requests.at(-1)?.body.messages);
    expect(occurrences(sent, 'What is green tea?')).toBe(1);

    // The next question carries the previous turn once, then itself.
    await ask(template.path, cookie, 'And black tea?');
    const next = JSON.stringify(fake.requests.at(-1)?.body.messages);
    expect([occurrences(next, 'What is green tea?'), occurrences(next, 'And black tea?')]).toEqual([
      1, 1,
    ]);
    expect(await stored(key)).toHaveLength(4);
  });

  it('commits nothing when the stream fails before its first token (429, then 500)', async () => {
    const { cookie, key } = await newSession();
    fake.script({ kind: 'error', status: 429, headers: { 'retry-after': '1' } });
    expect((await ask(template.streamPath, cookie, 'Hi')).status).toBe(429);
    fake.script({ kind: 'error', status: 500 });
    expect((await ask(template.streamPath, cookie, 'Hi')).status).toBeGreaterThanOrEqual(500);
    expect(await stored(key)).toEqual([]);
    const retry = await ask(template.streamPath, cookie, 'Hi');
    expect(
      parseSse(await retry.text()).filter((e) => e.event === template.textEvent).length,
    ).toBeGreaterThan(0);
    expect(await turns(key)).toEqual([
      { role: 'user', content: 'Hi', metadata: undefined },
      { role: 'assistant', content: 'Hello from the fake server.', metadata: undefined },
    ]);
  });

  it('keeps the user message and the partial answer, marked interrupted, when the client stops', async () => {
    const { cookie, key } = await newSession();
    fake.script({ kind: 'hang-after', chunks: ['Green tea ', 'is steeped'] });
    const controller = new AbortController();
    const res = await ask(template.streamPath, cookie, 'How is tea made?', controller.signal);
    expect(res.status).toBe(200);
    const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
    let seen = '';
    while (!seen.includes('is steeped')) seen += (await reader.read()).value ?? '';
    // Stop: a resumable stream (the chatbot's) is cancelled on the server, as the chat page's
    // Stop button does; otherwise the client just goes.
    const streamId = res.headers.get('x-stream-id');
    if (streamId) {
      const cancel = await fetch(`${url}/streams/${streamId}`, {
        method: 'DELETE',
        headers: { cookie },
      });
      expect(cancel.status).toBe(204);
    }
    controller.abort();

    await eventually(async () => (await stored(key)).length === 2, 'the stopped turn is stored');
    expect(await turns(key)).toEqual([
      { role: 'user', content: 'How is tea made?', metadata: undefined },
      { role: 'assistant', content: 'Green tea is steeped', metadata: { interrupted: true } },
    ]);
    // Stopping the client stopped the upstream call too.
    await fake.requests[0].ended;
    expect(fake.requests[0].clientClosed).toBe(true);
  });

  it('commits nothing when the upstream fails mid-stream', async () => {
    const { cookie, key } = await newSession();
    fake.script({ kind: 'drop-after', chunks: ['Half an ', 'answer'] });
    const res = await ask(template.streamPath, cookie, 'Tell me everything');
    expect(res.status).toBe(200);
    const events = parseSse(await res.text());
    expect(events.map((e) => e.event)).toContain('error');
    expect(
      events
        .filter((e) => e.event === template.textEvent)
        .map((e) => e.data)
        .join(''),
    ).toBe('Half an answer');
    expect(await stored(key)).toEqual([]);
  });

  it('never shows one session the history of another sending the same user_id', async () => {
    const [ada, eve] = [await newSession(), await newSession()];
    expect(ada.key).not.toBe(eve.key);
    const body = (text: string) => JSON.stringify({ [template.field]: text, user_id: 'ada' });
    const post = (cookie: string, path: string, text?: string) =>
      fetch(`${url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', cookie },
        body: text === undefined ? JSON.stringify({ user_id: 'ada' }) : body(text),
      });
    expect((await post(ada.cookie, template.path, 'My secret is 42')).status).toBe(200);
    expect((await post(eve.cookie, template.path, 'What is my secret?')).status).toBe(200);
    // Eve's request carried only her own message; her /clear leaves Ada's conversation alone.
    const sent = JSON.stringify(fake.requests.at(-1)?.body.messages);
    expect(sent).not.toContain('My secret is 42');
    expect((await post(eve.cookie, '/clear')).status).toBe(200);
    const adaKey = template.name === 'rag' ? ada.key : ada.key.replace(/\/me$/, '/ada');
    expect((await stored(adaKey)).map((m) => m.content)).toEqual([
      'My secret is 42',
      'Hello from the fake server.',
    ]);
  });
});
