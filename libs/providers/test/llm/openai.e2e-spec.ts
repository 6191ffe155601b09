import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { LLM } from '../../src/llm/llm.js';
import type { HistoryMessage, UsageReport } from '../../src/llm/chat-model.interface.js';
import { startFakeLlmServer } from '../support/fake-llm.server.js';
import type { FakeLlmServer } from '../support/fake-llm.server.js';
import { collect, fixture } from './llm-test.helpers.js';

describe('OpenAI through the real openai SDK', () => {
  let server: FakeLlmServer;
  let llm: LLM;

  beforeAll(async () => {
    server = await startFakeLlmServer();
  });
  afterAll(() => server.close());
  beforeEach(() => {
    server.reset();
    llm = new LLM('gpt-4o-mini', {
      env: { OPENAI_API_KEY: 'sk-test-openai-key', OPENAI_BASE_URL: server.openaiBaseURL },
      maxRetries: 0,
    });
  });

  it('answers a plain chat with the key, model and settings on the wire, and reports usage', async () => {
    server.script({
      kind: 'reply',
      text: 'Paris is the capital.',
      usage: { input: 12, output: 5 },
    });
    const usages: UsageReport[] = [];
    const answer = await llm.chat('Capital of France?', { onUsage: (u) => usages.push(u) });
    expect(answer).toBe('Paris is the capital.');
    expect(usages).toEqual([
      {
        inputTokens: 12,
        outputTokens: 5,
        totalTokens: 17,
        provider: 'openai',
        model: 'gpt-4o-mini',
        finishReason: 'stop',
        // gpt-4o-mini: $0.15 / $0.60 per 1M tokens.
        costUsd: (12 * 0.15 + 5 * 0.6) / 1e6,
        steps: 1,
        durationMs: expect.any(Number),
      },
    ]);
    const [req] = server.requests;
    expect(req.path).toBe('/v1/chat/completions');
    expect(req.headers.authorization).toBe('Bearer sk-test-openai-key');
    expect(req.body).toMatchObject({
      model: 'gpt-4o-mini',
      max_completion_tokens: 1024,
      temperature: 0.7,
    });
    expect(req.stream).toBe(false);
  });

  it('sends the system prompt and the history in OpenAI shape (extra fields dropped)', async () => {
    const history: HistoryMessage[] = [
      { role: 'user', content: 'I am Ada', timestamp: '2024-01-01T00:00:00Z' } as HistoryMessage,
      { role: 'assistant', content: 'Hi Ada' },
    ];
    await llm.chat('And my name?', { system: 'Be brief.', history });
    expect(server.requests[0].body.messages).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'I am Ada' },
      { role: 'assistant', content: 'Hi Ada' },
      { role: 'user', content: 'And my name?' },
    ]);
  });

  it('lets a call override temperature and maxTokens', async () => {
    await llm.complete('Hi', { temperature: 0, maxTokens: 7 });
    expect(server.requests[0].body).toMatchObject({ temperature: 0, max_completion_tokens: 7 });
  });

  it('sends no temperature to reasoning models', async () => {
    const o3 = new LLM('o3-mini', { apiKey: 'sk-test', baseURL: server.openaiBaseURL });
    await o3.complete('Think');
    expect(server.requests[0].body).not.toHaveProperty('temperature');
    expect(server.requests[0].body.model).toBe('o3-mini');
  });

  it('streams chunks in order, asks for and reports streamed usage', async () => {
    server.script({
      kind: 'reply',
      chunks: ['Hel', 'lo', ' there'],
      usage: { input: 3, output: 3 },
    });
    const usages: UsageReport[] = [];
    const stream = await llm.chat('Hi', { stream: true, onUsage: (u) => usages.push(u) });
    expect(await collect(stream)).toEqual(['Hel', 'lo', ' there']);
    expect(server.requests[0].body).toMatchObject({
      stream: true,
      stream_options: { include_usage: true },
    });
    expect(usages).toEqual([
      expect.objectContaining({ inputTokens: 3, outputTokens: 3, totalTokens: 6 }),
    ]);
  });

  it('streams with stream() and generate() returns usage and finish reason', async () => {
    server.script({ kind: 'reply', chunks: ['a', 'b'] });
    expect(await collect(llm.stream('x'))).toEqual(['a', 'b']);
    server.script({
      kind: 'reply',
      text: 'cut',
      finishReason: 'length',
      usage: { input: 1, output: 1 },
    });
    const result = await llm.generate('x');
    expect(result).toEqual({
      text: 'cut',
      finishReason: 'length',
      usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2, costUsd: 0.75 / 1e6 },
      steps: [
        {
          text: 'cut',
          finishReason: 'length',
          usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2 },
          toolCalls: [],
        },
      ],
      provider: 'openai',
      model: 'gpt-4o-mini',
    });
  });

  it('replays a recorded-format stream fixture', async () => {
    server.script({
      kind: 'raw',
      contentType: 'text/event-stream',
      body: fixture('openai-chat.chunks.txt'),
    });
    const usages: UsageReport[] = [];
    const chunks = await collect(
      await llm.chat('Say hi in French', { stream: true, onUsage: (u) => usages.push(u) }),
    );
    expect(chunks.join('')).toBe('Bonjour le monde!');
    expect(usages[0]).toMatchObject({ inputTokens: 19, outputTokens: 4, finishReason: 'length' });
  });

  it('embeds one text and batches many, deterministically', async () => {
    const batched = new LLM('gpt-4o-mini', {
      apiKey: 'sk-test',
      baseURL: server.openaiBaseURL,
      embedBatchSize: 2,
    });
    const one = await batched.embed('the cat sat on the mat');
    expect(one).toHaveLength(64);
    const many = await batched.embed(['the cat sat on the mat', 'a dog', 'the cat sat']);
    expect(many).toHaveLength(3);
    expect(many[0]).toEqual(one);
    const embedCalls = server.requests.filter((r) => r.api === 'openai-embeddings');
    expect(embedCalls.map((r) => r.body.input)).toEqual([
      ['the cat sat on the mat'],
      ['the cat sat on the mat', 'a dog'],
      ['the cat sat'],
    ]);
    expect(embedCalls[0].body).toMatchObject({
      model: 'text-embedding-3-small',
      encoding_format: 'float',
    });
    expect(await batched.embed([])).toEqual([]);
  });
});

describe('OpenAI-compatible families through the openai SDK', () => {
  let server: FakeLlmServer;

  beforeAll(async () => {
    server = await startFakeLlmServer();
  });
  afterAll(() => server.close());
  beforeEach(() => server.reset());

  const families = [
    {
      model: 'gemini-2.0-flash',
      keyVar: 'GEMINI_API_KEY',
      urlVar: 'GEMINI_BASE_URL',
      wire: 'gemini-2.0-flash',
    },
    {
      model: 'mistral-small-latest',
      keyVar: 'MISTRAL_API_KEY',
      urlVar: 'MISTRAL_BASE_URL',
      wire: 'mistral-small-latest',
    },
    {
      model: 'deepseek-chat',
      keyVar: 'DEEPSEEK_API_KEY',
      urlVar: 'DEEPSEEK_BASE_URL',
      wire: 'deepseek-chat',
    },
    {
      model: 'grok-2-latest',
      keyVar: 'XAI_API_KEY',
      urlVar: 'XAI_BASE_URL',
      wire: 'grok-2-latest',
    },
    { model: 'ollama/llama3', keyVar: null, urlVar: 'OLLAMA_BASE_URL', wire: 'llama3' },
  ];

  it.each(families)(
    '$model: key and base URL from its own variables, plain and streamed',
    async (f) => {
      const prefix = `/${f.urlVar.toLowerCase()}`;
      const env: Record<string, string> = { [f.urlVar]: `${server.url}${prefix}/v1` };
      if (f.keyVar) env[f.keyVar] = `key-for-${f.keyVar}`;
      const llm = new LLM(f.model, { env, maxRetries: 0 });
      server.script(
        { kind: 'reply', text: 'plain answer' },
        { kind: 'reply', chunks: ['stre', 'amed'] },
      );
      expect(await llm.chat('hello')).toBe('plain answer');
      expect(await collect(await llm.chat('hello', { stream: true }))).toEqual(['stre', 'amed']);
      const [plain, streamed] = server.requests;
      expect(plain.path).toBe(`${prefix}/v1/chat/completions`);
      expect(plain.body).toMatchObject({ model: f.wire, max_tokens: 1024 });
      if (f.keyVar) expect(plain.headers.authorization).toBe(`Bearer key-for-${f.keyVar}`);
      expect(streamed.stream).toBe(true);
    },
  );

  it('does not ask Mistral for a usage chunk it would reject', async () => {
    const llm = new LLM('mistral-large-latest', {
      env: { MISTRAL_API_KEY: 'm-key', MISTRAL_BASE_URL: server.openaiBaseURL },
    });
    await collect(await llm.chat('hi', { stream: true }));
    expect(server.requests[0].body).not.toHaveProperty('stream_options');
  });

  it('ollama needs no key and embeds with its local embedding model', async () => {
    const llm = new LLM('ollama/llama3', { env: { OLLAMA_BASE_URL: server.openaiBaseURL } });
    const vector = await llm.embed('local text');
    expect(vector).toHaveLength(64);
    expect(server.requests[0].body.model).toBe('nomic-embed-text');
  });
});
