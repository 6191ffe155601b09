import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { join } from 'node:path';
import { ConfigError } from '../../src/errors/config.error.js';
import { LLM } from '../../src/llm/llm.js';
import type { McpError } from '../../src/mcp/mcp.error.js';
import { connectMcpServers, type McpToolset } from '../../src/mcp/mcp-toolset.js';

const BROKEN = join(import.meta.dirname, 'fixtures/broken-server.mjs');
const broken = (mode: string) => ({ command: process.execPath, args: [BROKEN, mode] });
const llm = new LLM('echo');
const TIMEOUT = 2;

describe('an MCP server that misbehaves (fault injection)', () => {
  let mcp: McpToolset;
  const problems: McpError[] = [];

  beforeAll(async () => {
    mcp = await connectMcpServers(
      { broken: { ...broken('tools'), timeout: TIMEOUT } },
      { maxResultBytes: 100_000, onProblem: (error) => problems.push(error) },
    );
  });
  afterAll(() => mcp?.close());

  const call = async (tool: string) => {
    const answer = await llm.generate(`/tool broken__${tool}`, { tools: mcp.tools() });
    return answer.steps[0].toolCalls[0];
  };

  it('skips a tool whose schema is not JSON Schema, one whose name cannot be made valid, and a colliding one, naming server and tool', () => {
    expect(mcp.tools().map((t) => t.name)).toEqual([
      'broken__ok',
      'broken__hang',
      'broken__garbage',
      'broken__huge',
      'broken__fails',
      'broken__structured',
      'broken__a_b',
    ]);
    const skipped = mcp.status()[0].skipped;
    expect(skipped).toEqual([
      expect.stringMatching(
        /^MCP server "broken" tool "bad_schema" is skipped: its input schema is not valid JSON Schema/,
      ),
      expect.stringMatching(
        /^MCP server "broken" tool "a_b" is skipped: its name broken__a_b collides with tool "a.b"/,
      ),
      expect.stringMatching(
        /^MCP server "broken" tool "x{80}" is skipped: its name cannot be made a tool name/,
      ),
    ]);
    expect(problems.map((p) => [p.server, p.tool])).toEqual([
      ['broken', 'bad_schema'],
      ['broken', 'a_b'],
      ['broken', 'x'.repeat(80)],
    ]);
  });

  it('ends a call that hangs within its timeout, naming server and tool, and other tools still answer', async () => {
    const started = Date.now();
    const record = await call('hang');
    const elapsed = (Date.now() - started) / 1000;
    expect(record.error).toMatch(/MCP server "broken" tool "hang" did not answer within 2 s/);
    expect(elapsed).toBeGreaterThanOrEqual(TIMEOUT * 0.9);
    expect(elapsed).toBeLessThan(TIMEOUT + 10);
    expect((await call('ok')).result).toBe('ok');
  });

  it("ends a call that hangs as soon as the caller's signal aborts", async () => {
    const hang = mcp.tools().find((t) => t.name === 'broken__hang')!;
    const controller = new AbortController();
    const started = Date.now();
    setTimeout(() => controller.abort(new Error('client went away')), 100);
    const run = hang.execute({}, { signal: controller.signal, callId: 'c1', context: {} });
    await expect(run).rejects.toThrow('client went away');
    expect(Date.now() - started).toBeLessThan(TIMEOUT * 1000);
    expect((await call('ok')).result).toBe('ok');
  });

  it('ends a call answered with malformed JSON-RPC within its timeout, saying so', async () => {
    const record = await call('garbage');
    expect(record.error).toMatch(
      /MCP server "broken" tool "garbage" did not answer within 2 s \(last protocol error: .*JSON/,
    );
    expect((await call('ok')).result).toBe('ok');
  });

  it('refuses a result over the size limit, naming server and tool', async () => {
    const record = await call('huge');
    expect(record.error).toMatch(
      /MCP server "broken" tool "huge" returned \d+ bytes, over the limit of 100000/,
    );
    expect((await call('ok')).result).toBe('ok');
  });

  it('turns isError into a tool error the model sees, and keeps structured content as data', async () => {
    expect((await call('fails')).error).toMatch(
      /MCP server "broken" tool "fails" failed: no such city/,
    );
    expect((await call('structured')).result).toEqual({ celsius: 21 });
    expect((await call('a_b')).result).toBe('dotted');
  });
});

describe('MCP servers that cannot be used', () => {
  it('reports a server answering initialize with malformed JSON-RPC, naming it, within the timeout', async () => {
    const problems: string[] = [];
    const mcp = await connectMcpServers(
      { garbled: { ...broken('garbage-init'), timeout: 1 }, good: broken('tools') },
      { onProblem: (error) => problems.push(error.message) },
    );
    try {
      expect(problems.find((p) => p.includes('"garbled"'))).toMatch(
        /^MCP server "garbled" is not reachable: .*\(last protocol error: .*JSON/,
      );
      expect(mcp.status().map((s) => [s.name, s.state])).toEqual([
        ['garbled', expect.stringMatching(/down|connecting/)],
        ['good', 'connected'],
      ]);
      expect(mcp.tools().length).toBeGreaterThan(0);
    } finally {
      await mcp.close();
    }
  });

  it('rejects, naming the server, when a required server is down', async () => {
    const run = connectMcpServers({
      missing: { command: join(import.meta.dirname, 'fixtures/no-such-command'), required: true },
    });
    await expect(run).rejects.toThrow(/^MCP server "missing" is not reachable: .*ENOENT/);
  });

  it('names a header variable that is not set, and never shows a literal secret', async () => {
    const problems: string[] = [];
    await (
      await connectMcpServers(
        {
          gh: {
            url: 'http://127.0.0.1:9/mcp',
            headers: { Authorization: 'Bearer ${NO_SUCH_VAR_X}' },
          },
        },
        { env: {}, onProblem: (error) => problems.push(error.message) },
      )
    ).close();
    expect(problems).toEqual([
      'MCP server "gh" headers.Authorization names ${NO_SUCH_VAR_X}, which is not set in the environment',
    ]);
    const literal = connectMcpServers({
      gh: { url: 'http://x/mcp', headers: { Authorization: 'Bearer sk-secret' } },
    });
    await expect(literal).rejects.toThrow(ConfigError);
    await expect(literal).rejects.toThrow(
      /servers\.gh\.headers\.Authorization must name an environment variable/,
    );
    await expect(literal).rejects.not.toThrow(/sk-secret/);
  });
});
