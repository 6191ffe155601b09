/**
 * The lines toolkit's own logger writes (`ToolkitLogger`, what `App` uses), read from a real
 * process serving real HTTP requests: with `TOOLKIT_APP_LOG_FORMAT=json` every line is a JSON
 * object, those written during a request carry its `requestId` (a handler's line, the 5xx error
 * log, the access line with its fields); as text, `[<id>]` follows the context. Malformed incoming
 * ids and secrets in the query or headers appear nowhere. Runs on Express and on Fastify.
 */
import { describe, expect, it } from '@jest/globals';
import { fileURLToPath } from 'node:url';
import { runTypeScriptOutput } from './support/typescript-process.js';

const FIXTURE = fileURLToPath(new URL('./fixtures/request-logs.app.ts', import.meta.url));

interface Ids {
  hello: string;
  kept: string;
  tooLong: string;
  badChars: string;
  broken: string;
  note: string;
  streamed: string;
}

interface Run {
  ids: Ids;
  /** Every line written, stdout then stderr, but the RESULT line. */
  lines: string[];
  all: string;
}

async function run(format: 'json' | 'text'): Promise<Run> {
  const { stdout, stderr } = await runTypeScriptOutput(FIXTURE, {
    TOOLKIT_APP_LOG_FORMAT: format,
    NO_COLOR: '1',
  });
  const lines = `${stdout}${stderr}`.split('\n').filter((line) => line.trim() !== '');
  const result = lines.find((line) => line.startsWith('RESULT '));
  if (!result) throw new Error(`no RESULT line in:\n${stdout}\n${stderr}`);
  const ids = JSON.parse(result.slice('RESULT '.length)) as Ids;
  const rest = lines.filter((line) => line !== result);
  return { ids, lines: rest, all: rest.join('\n') };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('JSON logs (app.log_format: json)', () => {
  let out: Run;
  let records: Record<string, unknown>[];

  it('writes every line as one JSON object', async () => {
    out = await run('json');
    records = out.lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(records.length).toBeGreaterThan(0);
    for (const record of records) {
      expect(record).toMatchObject({
        level: expect.any(String),
        pid: expect.any(Number),
        timestamp: expect.any(Number),
      });
    }
  }, 90_000);

  it("carries the request id on a handler's line", () => {
    expect(out.ids.hello).toMatch(UUID);
    expect(records).toContainEqual(
      expect.objectContaining({
        level: 'log',
        context: 'Fixture',
        message: 'saying hello',
        requestId: out.ids.hello,
      }),
    );
  });

  it('carries it on a line written after reading a JSON body', () => {
    expect(records).toContainEqual(
      expect.objectContaining({ message: 'noting 100000 characters', requestId: out.ids.note }),
    );
  });

  it('carries it on the 5xx error log', () => {
    expect(records).toContainEqual(
      expect.objectContaining({
        level: 'error',
        context: 'toolkit',
        message: expect.stringContaining('kaput'),
        requestId: out.ids.broken,
      }),
    );
  });

  it('writes an access line per request, with the route pattern and its fields', () => {
    const access = records.filter((record) => record.context === 'Access');
    expect(access).toHaveLength(7);
    expect(access).toContainEqual({
      level: 'log',
      pid: expect.any(Number),
      timestamp: expect.any(Number),
      context: 'Access',
      message: expect.stringMatching(/^GET \/hello\/:name 200 \d+ms \d+B$/),
      requestId: out.ids.hello,
      method: 'GET',
      route: '/hello/:name',
      status: 200,
      durationMs: expect.any(Number),
      bytes: Buffer.byteLength(JSON.stringify({ hello: 'ada' })),
    });
    expect(access).toContainEqual(
      expect.objectContaining({ requestId: out.ids.broken, route: '/broken', status: 500 }),
    );
  });

  it("adds an LLM route's model, tokens, cost and time to first token", () => {
    const streamed = records.find(
      (record) => record.context === 'Access' && record.requestId === out.ids.streamed,
    );
    expect(streamed).toMatchObject({
      route: '/chat/stream',
      status: 200,
      model: 'echo',
      provider: 'echo',
      inputTokens: expect.any(Number),
      outputTokens: expect.any(Number),
      costUsd: expect.any(Number),
      firstByteMs: expect.any(Number),
      timeToFirstTokenMs: expect.any(Number),
    });
    const { message, timeToFirstTokenMs } = streamed as {
      message: string;
      timeToFirstTokenMs: number;
    };
    expect(timeToFirstTokenMs).toBeGreaterThanOrEqual(0);
    expect(message).toMatch(
      new RegExp(
        `^POST /chat/stream 200 .* model=echo tokens=\\d+\\+\\d+ cost=\\$\\d+\\.\\d{6} first-token=${timeToFirstTokenMs}ms$`,
      ),
    );
  });

  it('keeps a trusted, well-formed incoming id and replaces malformed ones, never logged', () => {
    expect(out.ids.kept).toBe('proxy-given-1');
    expect(out.ids.tooLong).toMatch(UUID);
    expect(out.ids.badChars).toMatch(UUID);
    expect(out.all).not.toContain('LONGID');
    expect(out.all).not.toContain('BADID');
    expect(out.all).not.toContain('<script>');
  });

  it('never logs the query string or an Authorization header', () => {
    expect(out.all).not.toContain('LOGTEST');
    expect(out.all).not.toContain('/hello/ada');
  });
});

describe('text logs (app.log_format: text)', () => {
  it('puts [<id>] after the context of the lines written during a request', async () => {
    const out = await run('text');
    const hello = out.lines.filter((line) => line.includes(`[${out.ids.hello}]`));
    expect(hello.some((line) => /LOG \[Fixture\] \[[^\]]+\] saying hello$/.test(line))).toBe(true);
    expect(
      hello.some((line) =>
        /LOG \[Access\] \[[^\]]+\] GET \/hello\/:name 200 \d+ms \d+B$/.test(line),
      ),
    ).toBe(true);
    expect(
      out.lines.some((line) => line.includes(`[${out.ids.broken}]`) && line.includes('kaput')),
    ).toBe(true);
    expect(out.all).not.toContain('LOGTEST');
    expect(out.all).not.toContain('LONGID');
    expect((): unknown => JSON.parse(out.lines[0])).toThrow();
  }, 90_000);
});
