import { afterAll, describe, expect, it } from '@jest/globals';
import { LLM } from '../../src/llm/llm.js';
import { connectMcpServers, type McpToolset } from '../../src/mcp/mcp-toolset.js';
import {
  eventually,
  freePort,
  everythingStdio,
  startEverythingHttp,
  type EverythingHttp,
} from './support/everything-server.js';
import { startLiveMcpServer, type LiveMcpServer } from './support/live-mcp-server.js';

const llm = new LLM('echo');
const echo = async (mcp: McpToolset, message: string) =>
  (await llm.generate(`/tool everything__echo {"message":"${message}"}`, { tools: mcp.tools() }))
    .steps[0].toolCalls[0];

describe('MCP connections come back', () => {
  const open: Array<{ close(): Promise<void> } | EverythingHttp> = [];
  afterAll(async () => {
    // Clients first, so none is left retrying a server that is gone.
    for (const item of open) if (!('stop' in item)) await item.close();
    for (const item of open) if ('stop' in item) await item.stop();
  });

  it('restarts a stdio server whose process was killed, and its tools answer again', async () => {
    const problems: string[] = [];
    const mcp = await connectMcpServers(
      { everything: everythingStdio() },
      { timeout: 20, onProblem: (error) => problems.push(error.message) },
    );
    open.push(mcp);
    const first = mcp.status()[0].pid;
    expect(first).toEqual(expect.any(Number));
    expect((await echo(mcp, 'before')).result).toBe('Echo: before');
    process.kill(first!, 'SIGKILL');
    await eventually(() => {
      const status = mcp.status()[0];
      return status.state === 'connected' && status.pid !== first;
    });
    expect((await echo(mcp, 'after')).result).toBe('Echo: after');
    expect(problems).toEqual([
      'MCP server "everything" lost its connection (the connection closed); reconnecting',
    ]);
  });

  it('opens a new session when a Streamable HTTP server restarted, the call going through', async () => {
    const server = await startEverythingHttp();
    open.push(server);
    const mcp = await connectMcpServers({ everything: { url: server.url } }, { timeout: 20 });
    open.push(mcp);
    expect((await echo(mcp, 'before')).result).toBe('Echo: before');
    await server.stop();
    const again = await startEverythingHttp(server.port);
    open.push(again);
    expect((await echo(mcp, 'after')).result).toBe('Echo: after');
    expect(mcp.status()[0].state).toBe('connected');
  });

  it('ends a call to a server that went away with an error naming server and tool', async () => {
    const server = await startEverythingHttp();
    open.push(server);
    const mcp = await connectMcpServers({ everything: { url: server.url } }, { timeout: 5 });
    open.push(mcp);
    await server.stop();
    const record = await echo(mcp, 'anyone?');
    expect(record.error).toMatch(
      /MCP server "everything" tool "echo" (is not reachable|lost its connection): /,
    );
    expect(mcp.status()[0].state).not.toBe('connected');
  });

  it('connects later to a server that was down at start-up, reporting it meanwhile', async () => {
    const port = await freePort();
    const problems: string[] = [];
    const mcp = await connectMcpServers(
      { late: { url: `http://127.0.0.1:${port}/mcp` } },
      { timeout: 20, onProblem: (error) => problems.push(error.message) },
    );
    open.push(mcp);
    expect(problems[0]).toMatch(/^MCP server "late" is not reachable: /);
    expect(mcp.status()[0]).toMatchObject({
      state: expect.stringMatching(/down|connecting/),
      tools: [],
    });
    open.push(await startEverythingHttp(port));
    await eventually(() => mcp.status()[0].state === 'connected');
    expect(mcp.tools().map((t) => t.name)).toContain('late__echo');
  });
});

describe('notifications/tools/list_changed', () => {
  let server: LiveMcpServer;
  let mcp: McpToolset;
  afterAll(async () => {
    await mcp?.close();
    await server?.close();
  });

  it('refreshes the tools when the official SDK server adds one at run time', async () => {
    server = await startLiveMcpServer();
    mcp = await connectMcpServers({ live: { url: server.url } }, { timeout: 20 });
    expect(mcp.tools().map((t) => t.name)).toEqual(['live__first']);
    server.addTool('second', 'two');
    await eventually(() => mcp.tools().some((t) => t.name === 'live__second'));
    const answer = await llm.generate('/tool live__second {}', { tools: mcp.tools() });
    expect(answer.text).toBe('Tool live__second returned two.');
  });
});
