import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SESSION_COOKIE } from 'toolkit';
import { createTestingApp, type TestingApp } from 'toolkit/testing';
import { z } from 'zod';
import { app } from '../app.js';
import { AgentController } from '../src/agent.controller.js';
import { stylesProvider } from '../src/styles.js';
import { CalculatorTools } from '../src/tools/calculator.tools.js';
import { ClockTools } from '../src/tools/clock.tools.js';
import { NotesTools } from '../src/tools/notes.tools.js';

const urlOf = (server: Server, path = '') =>
  `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`;

/** An MCP client of `url` (the official SDK's), sending `headers` with every request. */
async function connect(url: string, headers: Record<string, string> = {}): Promise<Client> {
  const client = new Client({ name: 'agent-tests', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }),
  );
  return client;
}

/** The text of a tool result. */
function textOf(result: Awaited<ReturnType<Client['callTool']>>): string {
  const content = result.content as { type: string; text?: string }[];
  return content.map((part) => part.text ?? '').join('');
}

describe("the agent's tools over MCP (POST /mcp)", () => {
  let base: string;
  beforeAll(async () => {
    base = urlOf(await app.run({ port: 0, announce: false }));
  });
  afterAll(() => app.close());

  /** A new session's cookie, as a browser (or an MCP client configured with it) sends it back. */
  async function sessionCookie(): Promise<string> {
    const res = await fetch(`${base}/history`);
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith(`${SESSION_COOKIE}=`));
    return cookie!.split(';')[0];
  }

  it('lists the tools and runs the calculator for the official SDK client', async () => {
    const client = await connect(`${base}/mcp`);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual([
      'calculator',
      'current_time',
      'save_note',
      'search_notes',
    ]);
    expect(tools.find((tool) => tool.name === 'calculator')?.inputSchema).toMatchObject({
      required: ['expression'],
    });
    const result = await client.callTool({
      name: 'calculator',
      arguments: { expression: '2 * (3 + 4)' },
    });
    expect(result.isError).toBeFalsy();
    expect(textOf(result)).toBe('14');
    const failed = await client.callTool({ name: 'calculator', arguments: { expression: '1/0' } });
    expect(failed.isError).toBe(true);
    expect(textOf(failed)).toMatch(/division by zero/);
    await client.close();
  });

  it('keeps notes per MCP caller: another session never finds them', async () => {
    const [mine, theirs] = [await sessionCookie(), await sessionCookie()];
    expect(mine).not.toBe(theirs);
    const me = await connect(`${base}/mcp`, { cookie: mine });
    const saved = await me.callTool({
      name: 'save_note',
      arguments: { text: 'The launch is on Friday' },
    });
    expect(JSON.parse(textOf(saved))).toEqual({ saved: 'The launch is on Friday', notes: 1 });
    const found = await me.callTool({ name: 'search_notes', arguments: { query: 'launch?' } });
    expect(JSON.parse(textOf(found))).toEqual({ notes: ['The launch is on Friday'] });

    const them = await connect(`${base}/mcp`, { cookie: theirs });
    const stranger = await them.callTool({ name: 'search_notes', arguments: { query: 'launch' } });
    expect(JSON.parse(textOf(stranger))).toEqual({ notes: [], message: 'no saved note matches' });
    await Promise.all([me.close(), them.close()]);

    // The session's default conversation keeps them: its chat finds them too.
    const chat = await fetch(`${base}/chat`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: mine },
      body: JSON.stringify({ message: '/tool search_notes {"query": "launch"}' }),
    });
    expect(((await chat.json()) as { response: string }).response).toContain(
      'The launch is on Friday',
    );
  });

  it('answers GET with 405: the endpoint is stateless, POST only', async () => {
    const res = await fetch(`${base}/mcp`, { headers: { accept: 'text/event-stream' } });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('POST');
  });
});

/**
 * A real MCP server (the official SDK's `McpServer`, stateless Streamable HTTP) with one tool,
 * `forecast`, that answers only requests carrying `X-Weather-Key: key`.
 */
async function startWeatherServer(key: string): Promise<Server> {
  const server = createServer((req, res) => {
    if (req.headers['x-weather-key'] !== key) {
      res.writeHead(401, { 'content-type': 'application/json' }).end('{"error":"bad key"}');
      return;
    }
    const mcp = new McpServer({ name: 'weather', version: '1.0.0' });
    mcp.registerTool(
      'forecast',
      { description: "A city's forecast", inputSchema: { city: z.string() } },
      ({ city }) => ({ content: [{ type: 'text', text: `Sunny in ${city}` }] }),
    );
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    res.once('close', () => void mcp.close());
    mcp
      .connect(transport)
      .then(() => transport.handleRequest(req, res))
      .catch(() => res.destroy());
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return server;
}

describe("the chat calls an MCP server's tools (mcp.servers)", () => {
  let weather: Server;
  let agent: TestingApp;
  beforeAll(async () => {
    const key = randomUUID();
    process.env.WEATHER_KEY = key;
    weather = await startWeatherServer(key);
    agent = await createTestingApp({
      controllers: [AgentController],
      providers: [stylesProvider, CalculatorTools, ClockTools, NotesTools],
      // As in toolkit.yaml: the header names the environment variable holding the key.
      config: {
        mcp: {
          servers: {
            weather: {
              url: urlOf(weather, '/mcp'),
              headers: { 'X-Weather-Key': '${WEATHER_KEY}' },
              required: true,
            },
          },
        },
      },
    });
  });
  afterAll(async () => {
    await agent?.close();
    weather?.close();
    delete process.env.WEATHER_KEY;
  });

  it('runs `/tool weather__forecast {json}` on the offline model and answers with its result', async () => {
    const res = await agent.client.post('/chat', {
      json: { message: '/tool weather__forecast {"city": "Lisbon"}' },
    });
    expect(res.json()).toEqual({
      response: 'Tool weather__forecast returned Sunny in Lisbon.',
      tool_calls: [
        expect.objectContaining({
          name: 'weather__forecast',
          args: { city: 'Lisbon' },
          result: 'Sunny in Lisbon',
        }),
      ],
    });
  });

  it("reports bad arguments to the model as the tool's error; the request still succeeds", async () => {
    const res = await agent.client.post('/chat', {
      json: { message: '/tool weather__forecast {"town": "Lisbon"}' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json<{ response: string }>().response).toMatch(/weather__forecast failed/);
  });
});
