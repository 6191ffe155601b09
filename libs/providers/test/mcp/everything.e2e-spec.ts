import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { LLM } from '../../src/llm/llm.js';
import type { LlmStreamEvent } from '../../src/llm/tools/llm-stream-event.js';
import { connectMcpServers, type McpToolset } from '../../src/mcp/mcp-toolset.js';
import type { McpServerConfig } from '../../src/mcp/mcp-server-config.js';
import {
  everythingStdio,
  startEverythingHttp,
  type EverythingHttp,
} from './support/everything-server.js';

const llm = new LLM('echo');

describe.each([
  [
    'stdio',
    async () => ({ config: everythingStdio() as McpServerConfig, stop: async () => undefined }),
  ],
  [
    'Streamable HTTP',
    async () => {
      const server: EverythingHttp = await startEverythingHttp();
      return { config: { url: server.url } as McpServerConfig, stop: server.stop };
    },
  ],
])('the MCP reference server (server-everything) over %s', (_transport, start) => {
  let mcp: McpToolset;
  let stop: () => Promise<void>;

  beforeAll(async () => {
    const started = await start();
    stop = started.stop;
    mcp = await connectMcpServers({ everything: started.config }, { timeout: 20 });
  });
  afterAll(async () => {
    await mcp?.close();
    await stop?.();
  });

  it('lists its tools as everything__<tool>, connected', () => {
    const names = mcp.tools().map((tool) => tool.name);
    expect(names).toEqual(expect.arrayContaining(['everything__echo', 'everything__get-sum']));
    expect(mcp.status()).toEqual([
      expect.objectContaining({
        name: 'everything',
        state: 'connected',
        required: false,
        skipped: [],
      }),
    ]);
  });

  it('runs everything__echo through llm.generate with the echo model', async () => {
    const answer = await llm.generate('/tool everything__echo {"message":"hi"}', {
      tools: mcp.tools(),
    });
    expect(answer.steps[0].toolCalls).toEqual([
      expect.objectContaining({
        name: 'everything__echo',
        args: { message: 'hi' },
        result: 'Echo: hi',
      }),
    ]);
    expect(answer.text).toBe('Tool everything__echo returned Echo: hi.');
  });

  it('runs everything__get-sum through streamEvents', async () => {
    const events: LlmStreamEvent[] = [];
    const stream = await llm.streamEvents('/tool everything__get-sum {"a":2,"b":3}', {
      tools: mcp.tools(),
    });
    for await (const event of stream) events.push(event);
    expect(events[1]).toEqual({
      type: 'tool-result',
      data: { id: 'echo_call_1', name: 'everything__get-sum', result: 'The sum of 2 and 3 is 5.' },
    });
  });

  it('validates arguments against the server schema before calling', async () => {
    const answer = await llm.generate('/tool everything__get-sum {"a":"two","b":3}', {
      tools: mcp.tools(),
    });
    expect(answer.steps[0].toolCalls[0].error).toMatch(/\/a: must be number/);
  });
});
