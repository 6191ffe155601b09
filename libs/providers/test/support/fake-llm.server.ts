import { createServer } from 'node:http';
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { hashedEmbedding, words } from '../../src/llm/echo/hashed-embedding.js';
import { anthropicWire, openaiWire } from '../llm/fake-llm.wire.js';
import type { ReplyShape, Wire } from '../llm/fake-llm.wire.js';

/** Which endpoint a request hit. */
export type FakeApi = 'openai-chat' | 'openai-embeddings' | 'anthropic-messages';

/** Restricts a scripted step to some requests; unset fields match anything. */
export interface FakeMatch {
  /** `openai` matches both OpenAI endpoints. */
  api?: FakeApi | 'openai' | 'anthropic';
  model?: string;
  /** Start of the request path, e.g. `/gemini` to target one OpenAI-compatible family. */
  pathPrefix?: string;
}

/** What the server does with one request. Steps are used once, in order, when they match. */
export type FakeStep = { when?: FakeMatch } & (
  | {
      kind: 'reply';
      /** Whole answer; streamed word by word unless `chunks` is given. */
      text?: string;
      chunks?: string[];
      usage?: { input: number; output: number };
      /** Vendor finish reason, e.g. `length` (OpenAI) or `max_tokens` (Anthropic). */
      finishReason?: string;
      /** Pause before each streamed chunk. */
      chunkDelayMs?: number;
      /**
       * Tool calls after the text: OpenAI `tool_calls` (streamed as indexed deltas with argument
       * fragments), Anthropic `tool_use` blocks (streamed with `input_json_delta`). Object
       * arguments are sent as JSON; a string is sent verbatim (e.g. broken JSON).
       */
      toolCalls?: { id?: string; name: string; arguments: string | Record<string, unknown> }[];
    }
  /** An HTTP error in the vendor's error shape, e.g. 401, 429 with `retry-after`, 500. */
  | { kind: 'error'; status: number; message?: string; headers?: Record<string, string> }
  /** Never answers: no status line, nothing. */
  | { kind: 'hang' }
  /** Streams `chunks`, then holds the connection open without finishing. */
  | { kind: 'hang-after'; chunks: string[] }
  /** Streams `chunks`, then destroys the socket. */
  | { kind: 'drop-after'; chunks: string[] }
  /** Replays a body verbatim (e.g. a fixture file). */
  | { kind: 'raw'; status?: number; contentType: string; body: string }
);

/** One request the server received. */
export interface FakeRequest {
  api: FakeApi;
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: Record<string, unknown>;
  model: string | undefined;
  stream: boolean;
  /** True when the client closed the connection before the response was complete. */
  clientClosed: boolean;
  /** Settles when the exchange is over, whichever side ended it. */
  ended: Promise<void>;
}

/** Options of {@link startFakeLlmServer}. */
export interface FakeLlmServerOptions {
  /** Answer when no scripted step matches. @default "Hello from the fake server." */
  defaultReply?: string;
  /** Length of embedding vectors when the request names no `dimensions`. @default 64 */
  embeddingDimensions?: number;
}

/** A running fake provider. */
export interface FakeLlmServer {
  /** `http://127.0.0.1:<port>` */
  url: string;
  /** Base URL for the `openai` SDK (`<url>/v1`). */
  openaiBaseURL: string;
  /** Base URL for `@anthropic-ai/sdk` (the SDK appends `/v1/messages`). */
  anthropicBaseURL: string;
  /** Every request received, in order. */
  requests: FakeRequest[];
  /** Queues behaviours for the next matching requests. */
  script(...steps: FakeStep[]): void;
  /** Forgets requests and unused steps. */
  reset(): void;
  /** Resolves once at least `count` requests arrived (rejects after `timeoutMs`). */
  waitForRequests(count: number, timeoutMs?: number): Promise<FakeRequest[]>;
  close(): Promise<void>;
}

function apiOf(path: string): FakeApi | undefined {
  if (path.endsWith('/chat/completions')) return 'openai-chat';
  if (path.endsWith('/embeddings')) return 'openai-embeddings';
  if (path.endsWith('/v1/messages') || path.endsWith('/messages')) return 'anthropic-messages';
  return undefined;
}

function matches(when: FakeMatch | undefined, req: FakeRequest): boolean {
  if (!when) return true;
  if (when.api === 'openai' && !req.api.startsWith('openai')) return false;
  if (when.api === 'anthropic' && req.api !== 'anthropic-messages') return false;
  if (when.api && when.api !== 'openai' && when.api !== 'anthropic' && when.api !== req.api) {
    return false;
  }
  if (when.model !== undefined && when.model !== req.model) return false;
  return when.pathPrefix === undefined || req.path.startsWith(when.pathPrefix);
}

async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  const parts: Buffer[] = [];
  for await (const part of req) parts.push(part as Buffer);
  const text = Buffer.concat(parts).toString('utf8');
  if (text === '') return {};
  const parsed: unknown = JSON.parse(text);
  return typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>) : {};
}

/** Word count of every message content (and the system prompt): the fake's token count. */
function promptTokens(body: Record<string, unknown>): number {
  const texts: string[] = [];
  if (typeof body.system === 'string') texts.push(body.system);
  if (Array.isArray(body.messages)) {
    for (const m of body.messages as unknown[]) {
      const content = (m as { content?: unknown } | null)?.content;
      if (typeof content === 'string') texts.push(content);
    }
  }
  return words(texts.join(' ')).length;
}

function splitWords(text: string): string[] {
  return text.match(/\S+\s*/g) ?? [];
}

function embeddingsBody(body: Record<string, unknown>, defaultDims: number): unknown {
  const inputs: unknown[] = Array.isArray(body.input) ? (body.input as unknown[]) : [body.input];
  const dims = typeof body.dimensions === 'number' ? body.dimensions : defaultDims;
  const base64 = body.encoding_format === 'base64';
  const data = inputs.map((input, index) => {
    const vector = hashedEmbedding(String(input), dims);
    const embedding = base64
      ? Buffer.from(new Float32Array(vector).buffer).toString('base64')
      : vector;
    return { object: 'embedding', index, embedding };
  });
  const tokens = inputs.reduce<number>((n, i) => n + words(String(i)).length, 0);
  return {
    object: 'list',
    data,
    model: body.model,
    usage: { prompt_tokens: tokens, total_tokens: tokens },
  };
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Starts a local server speaking the OpenAI chat-completions and embeddings wire formats and
 * Anthropic's messages format (plain and SSE), so tests point the REAL SDKs at it. Steps can
 * script errors, hangs and broken streams; every request is recorded, including whether the
 * client hung up early. Embeddings are deterministic hashed bags of words.
 *
 * @example
 * const server = await startFakeLlmServer();
 * server.script({ kind: 'error', status: 500 }, { kind: 'reply', text: 'ok' });
 * const llm = new LLM('gpt-4o-mini', { apiKey: 'sk-test', baseURL: server.openaiBaseURL });
 */
export async function startFakeLlmServer(
  options: FakeLlmServerOptions = {},
): Promise<FakeLlmServer> {
  const requests: FakeRequest[] = [];
  let steps: FakeStep[] = [];
  const defaultReply = options.defaultReply ?? 'Hello from the fake server.';
  const dims = options.embeddingDimensions ?? 64;

  async function writeStream(
    res: ServerResponse,
    wire: Wire,
    shape: ReplyShape,
    chunkDelayMs: number,
    end: 'finish' | 'hang' | 'drop',
  ): Promise<void> {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    for (const event of wire.streamStart(shape)) res.write(event);
    for (const chunk of shape.chunks) {
      if (chunkDelayMs) await sleep(chunkDelayMs);
      if (res.destroyed) return;
      await new Promise<void>((resolve) =>
        res.write(wire.streamDelta(shape, chunk), () => resolve()),
      );
    }
    if (end === 'hang') return;
    if (end === 'drop') {
      // Let the client read what was sent, then cut the connection mid-body.
      await sleep(50);
      res.socket?.destroy();
      return;
    }
    for (const event of wire.streamEnd(shape)) res.write(event);
    res.end();
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = new URL(req.url ?? '/', 'http://fake').pathname;
    const api = apiOf(path);
    if (!api || req.method !== 'POST') {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: `no fake endpoint ${req.method} ${path}` } }));
      return;
    }
    const body = await readJson(req);
    let settle!: () => void;
    const record: FakeRequest = {
      api,
      method: req.method,
      path,
      headers: req.headers,
      body,
      model: typeof body.model === 'string' ? body.model : undefined,
      stream: body.stream === true,
      clientClosed: false,
      ended: new Promise<void>((resolve) => (settle = resolve)),
    };
    let serverDropped = false;
    res.on('close', () => {
      record.clientClosed = !res.writableFinished && !serverDropped;
      settle();
    });
    requests.push(record);

    const index = steps.findIndex((s) => matches(s.when, record));
    const step: FakeStep = index === -1 ? { kind: 'reply' } : steps.splice(index, 1)[0];
    const wire = api === 'anthropic-messages' ? anthropicWire : openaiWire;

    if (api === 'openai-embeddings' && step.kind === 'reply') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(embeddingsBody(body, dims)));
      return;
    }
    const shapeFor = (
      chunks: string[],
      usage?: { input: number; output: number },
      finish?: string,
    ): ReplyShape => ({
      model: record.model ?? 'unknown',
      chunks,
      inputTokens: usage?.input ?? promptTokens(body),
      outputTokens: usage?.output ?? chunks.length,
      finishReason: finish,
      includeUsage:
        (body.stream_options as { include_usage?: unknown } | undefined)?.include_usage === true,
    });
    switch (step.kind) {
      case 'reply': {
        const text = step.text ?? (step.toolCalls ? '' : defaultReply);
        const chunks = step.chunks ?? splitWords(text);
        const shape = shapeFor(chunks, step.usage, step.finishReason);
        shape.toolCalls = step.toolCalls?.map((c, i) => ({
          id: c.id ?? `call_${requests.length}_${i}`,
          name: c.name,
          arguments: typeof c.arguments === 'string' ? c.arguments : JSON.stringify(c.arguments),
        }));
        if (record.stream) {
          await writeStream(res, wire, shape, step.chunkDelayMs ?? 0, 'finish');
        } else {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(JSON.stringify(wire.complete(shape)));
        }
        return;
      }
      case 'error':
        res.writeHead(step.status, { 'content-type': 'application/json', ...step.headers });
        res.end(
          JSON.stringify(wire.error(step.status, step.message ?? `fake error ${step.status}`)),
        );
        return;
      case 'hang':
        return;
      case 'hang-after':
        await writeStream(res, wire, shapeFor(step.chunks), 0, 'hang');
        return;
      case 'drop-after':
        serverDropped = true;
        await writeStream(res, wire, shapeFor(step.chunks), 0, 'drop');
        return;
      case 'raw':
        res.writeHead(step.status ?? 200, { 'content-type': step.contentType });
        res.end(step.body);
        return;
    }
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: String(error) } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;

  return {
    url,
    openaiBaseURL: `${url}/v1`,
    anthropicBaseURL: url,
    requests,
    script: (...more) => {
      steps.push(...more);
    },
    reset: () => {
      requests.length = 0;
      steps = [];
    },
    waitForRequests: async (count, timeoutMs = 5000) => {
      const deadline = Date.now() + timeoutMs;
      while (requests.length < count) {
        if (Date.now() > deadline) {
          throw new Error(`expected ${count} requests, got ${requests.length}`);
        }
        await sleep(10);
      }
      return requests;
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
