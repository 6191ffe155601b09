import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { z } from 'zod';
import { LLM } from '../../src/llm/llm.js';
import { StructuredOutputError } from '../../src/llm/structured/structured-output.error.js';
import { startFakeLlmServer } from '../support/fake-llm.server.js';
import type { FakeLlmServer, FakeRequest, FakeStep } from '../support/fake-llm.server.js';
import { rejection } from './llm-test.helpers.js';

const citySchema = {
  type: 'object',
  properties: { city: { type: 'string' }, population: { type: 'integer' } },
  required: ['city', 'population'],
} as const;

interface Family {
  label: string;
  make(server: FakeLlmServer): LLM;
  /** A scripted reply carrying `json` the vendor's native way. */
  reply(json: string): FakeStep;
  /** Asserts the request asked for JSON natively. */
  expectNativeMode(req: FakeRequest): void;
  /** The text of the last user turn. */
  lastUser(req: FakeRequest): string;
}

const lastOpenAIUser = (req: FakeRequest): string =>
  String((req.body.messages as { role: string; content: string }[]).at(-1)?.content);

const families: Family[] = [
  {
    label: 'OpenAI',
    make: (server) =>
      new LLM('gpt-4o-mini', {
        env: { OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: server.openaiBaseURL },
        maxRetries: 0,
      }),
    reply: (json) => ({ kind: 'reply', text: json }),
    expectNativeMode: (req) =>
      expect(req.body.response_format).toEqual({
        type: 'json_schema',
        json_schema: { name: 'answer', schema: citySchema, strict: false },
      }),
    lastUser: lastOpenAIUser,
  },
  {
    label: 'Anthropic',
    make: (server) =>
      new LLM('claude-3-5-haiku-latest', {
        env: { ANTHROPIC_API_KEY: 'sk-ant-test', ANTHROPIC_BASE_URL: server.anthropicBaseURL },
        maxRetries: 0,
      }),
    reply: (json) => ({ kind: 'reply', toolCalls: [{ name: 'answer', arguments: json }] }),
    expectNativeMode: (req) => {
      expect(req.body.tool_choice).toEqual({ type: 'tool', name: 'answer' });
      expect(req.body.tools).toEqual([
        expect.objectContaining({ name: 'answer', input_schema: citySchema }),
      ]);
    },
    lastUser: (req) => {
      const last = (req.body.messages as { content: unknown }[]).at(-1)?.content;
      return typeof last === 'string' ? last : JSON.stringify(last);
    },
  },
  {
    label: 'Mistral (OpenAI-compatible)',
    make: (server) =>
      new LLM('mistral-small-latest', {
        env: { MISTRAL_API_KEY: 'sk-test', MISTRAL_BASE_URL: `${server.url}/mistral/v1` },
        maxRetries: 0,
      }),
    reply: (json) => ({ kind: 'reply', text: json }),
    expectNativeMode: (req) => expect(req.body.response_format).toEqual({ type: 'json_object' }),
    lastUser: lastOpenAIUser,
  },
];

describe.each(families)('structured output: $label through its real SDK', (family) => {
  let server: FakeLlmServer;
  let llm: LLM;

  beforeAll(async () => {
    server = await startFakeLlmServer();
  });
  afterAll(() => server.close());
  beforeEach(() => {
    server.reset();
    llm = family.make(server);
  });

  it('returns the object in native JSON mode, typed by the as-const schema', async () => {
    server.script(family.reply('{"city": "Paris", "population": 2100000}'));
    const { object, attempts } = await llm.generateObject('Paris has 2.1M people', {
      schema: citySchema,
    });
    const city: string = object.city;
    expect(city).toBe('Paris');
    expect(object.population).toBe(2_100_000);
    expect(attempts).toBe(1);
    family.expectNativeMode(server.requests[0]);
  });

  it('retries an invalid reply with the validation error fed back', async () => {
    server.script(
      family.reply('{"city": "Paris", "population": "many"}'),
      family.reply('{"city": "Paris", "population": 2}'),
    );
    const { object, attempts } = await llm.generateObject('x', { schema: citySchema });
    expect(object).toEqual({ city: 'Paris', population: 2 });
    expect(attempts).toBe(2);
    expect(family.lastUser(server.requests[1])).toMatch(/\/population: must be integer/);
  });

  it('fails with 502 naming the violated path once the retries are spent', async () => {
    const bad = family.reply('{"population": 3}');
    server.script(bad, bad);
    const error = await rejection(llm.generateObject('x', { schema: citySchema, maxRetries: 1 }));
    expect(error).toBeInstanceOf(StructuredOutputError);
    expect(error).toMatchObject({ statusCode: 502 });
    expect(error.message).toMatch(/after 2 attempts: \/city: must have required property 'city'/);
    expect(server.requests).toHaveLength(2);
  });

  it('accepts a zod schema (typed and transformed by it)', async () => {
    server.script(family.reply('{"city": "paris", "population": 5}'));
    const schema = z.object({
      city: z.string().transform((s) => s.toUpperCase()),
      population: z.number(),
    });
    const { object } = await llm.generateObject('x', { schema });
    const upper: string = object.city;
    expect(upper).toBe('PARIS');
  });

  it('streams partial objects, then the whole validated object', async () => {
    server.script(family.reply('{"city": "Paris", "population": 2100000}'));
    const seen: unknown[] = [];
    for await (const partial of await llm.streamObject('x', { schema: citySchema })) {
      seen.push(partial);
    }
    expect(seen.length).toBeGreaterThan(1);
    expect(seen.at(-1)).toEqual({ city: 'Paris', population: 2_100_000 });
    expect(
      seen.slice(0, -1).some((p) => (p as { population?: number }).population === undefined),
    ).toBe(true);
    expect(server.requests[0].stream).toBe(true);
  });

  it('ends a stream whose final object is invalid with StructuredOutputError', async () => {
    server.script(family.reply('{"city": 7}'));
    const consume = async () => {
      for await (const _ of await llm.streamObject('x', { schema: citySchema })) void _;
    };
    const error = await rejection(consume());
    expect(error).toBeInstanceOf(StructuredOutputError);
    expect(error.message).toMatch(/\/city: must be string/);
  });
});

describe('structured output: bad input', () => {
  it('refuses a schema that is not JSON Schema, and a bad maxRetries', async () => {
    const llm = new LLM('echo');
    const badSchema = await rejection(llm.generateObject('x', { schema: { type: 'objekt' } }));
    expect(badSchema.message).toMatch(/schema is not a valid JSON Schema/);
    const badRetries = await rejection(
      llm.generateObject('x', { schema: citySchema, maxRetries: -1 }),
    );
    expect(badRetries).toMatchObject({ statusCode: 422 });
  });

  it('unwraps a ```json fence around the reply', async () => {
    const server = await startFakeLlmServer();
    try {
      server.script({ kind: 'reply', text: '```json\n{"city": "Oslo", "population": 1}\n```' });
      const llm = new LLM('gpt-4o-mini', { apiKey: 'sk-test', baseURL: server.openaiBaseURL });
      const { object } = await llm.generateObject('x', { schema: citySchema });
      expect(object.city).toBe('Oslo');
    } finally {
      await server.close();
    }
  });
});
