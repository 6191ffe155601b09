// The MCP server (`McpServerModule`) against the official SDK's client, on this run's platform
// (Express, or Fastify in the `fastify` project): list, call, errors, cancellation, identity,
// guards.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { App, McpServerModule, SESSION_COOKIE, Tool, ToolkitError } from 'toolkit';
import type { ToolContext } from 'toolkit';
import { testPlatform } from '../../../test/support/platform.js';

/** What the tools saw: how often each ran, and the `wait` tool's signal. */
const probe = {
  runs: 0,
  waitStarted: undefined as ((signal: AbortSignal) => void) | undefined,
};

@Injectable()
class DeskTools {
  @Tool({
    description: 'Adds two numbers',
    parameters: {
      type: 'object',
      properties: { a: { type: 'number' }, b: { type: 'number' } },
      required: ['a', 'b'],
    },
  })
  add({ a, b }: { a: number; b: number }) {
    probe.runs += 1;
    return { sum: a + b };
  }

  @Tool({ description: 'Says who is calling', parameters: { type: 'object', properties: {} } })
  whoami(_args: unknown, { context }: ToolContext) {
    probe.runs += 1;
    return `you are ${String(context.session)}`;
  }

  @Tool({ description: 'Opens the vault', parameters: { type: 'object', properties: {} } })
  open_vault(): never {
    probe.runs += 1;
    throw new Error('the vault is locked');
  }

  @Tool({ description: 'Waits until cancelled', parameters: { type: 'object', properties: {} } })
  wait(_args: unknown, { signal }: ToolContext) {
    probe.runs += 1;
    probe.waitStarted?.(signal);
    return new Promise((_, reject) => {
      signal.addEventListener('abort', () => reject(new Error('stopped')));
    });
  }
}

/** `Authorization: Bearer <user>` sets `req.user`; anything else is a 401 (as an API key guard). */
@Injectable()
class BearerGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const req = context.switchToHttp().getRequest<{
      headers: Record<string, string | undefined>;
      user?: { id: string };
    }>();
    const match = /^Bearer (\w+)$/.exec(req.headers.authorization ?? '');
    if (!match) {
      throw new ToolkitError('A bearer token is required', {
        statusCode: 401,
        headers: { 'WWW-Authenticate': 'Bearer realm="mcp"' },
      });
    }
    req.user = { id: match[1] };
    return true;
  }
}

/** Requires `X-Api-Key: open-sesame`; sets no user. */
@Injectable()
class KeyGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const req = context
      .switchToHttp()
      .getRequest<{ headers: Record<string, string | undefined> }>();
    if (req.headers['x-api-key'] === 'open-sesame') return true;
    throw new ToolkitError('An API key is required', { statusCode: 401 });
  }
}

async function start(app: App): Promise<string> {
  const server: Server = await app.run({ port: 0, announce: false });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function connect(url: string, headers: Record<string, string> = {}): Promise<Client> {
  const client = new Client({ name: 'mcp-server-spec', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }),
  );
  return client;
}

const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: {
    protocolVersion: '2025-06-18',
    capabilities: {},
    clientInfo: { name: 'raw', version: '1.0.0' },
  },
};

function post(
  url: string,
  body: unknown,
  headers: Record<string, string> = {},
  signal?: AbortSignal,
) {
  return fetch(url, {
    method: 'POST',
    signal,
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...headers,
    },
    body: JSON.stringify(body),
  });
}

describe('McpServerModule behind a global guard, at the default path', () => {
  const app = new App({
    title: 'desk',
    version: '3.1.0',
    providers: [DeskTools, { provide: APP_GUARD, useClass: BearerGuard }],
    imports: [McpServerModule.forRoot()],
    logger: false,
    cwd: '/nonexistent',
  });
  let url: string;
  const clients: Client[] = [];
  const open = async (user: string) => {
    const client = await connect(url, { authorization: `Bearer ${user}` });
    clients.push(client);
    return client;
  };

  beforeAll(async () => {
    url = `${await start(app)}/mcp`;
  });
  afterAll(async () => {
    await Promise.all(clients.map((client) => client.close()));
    await app.close();
  });

  it('announces the app as the server and lists every tool with its JSON Schema', async () => {
    expect((await app.init()).getHttpAdapter().getType()).toBe(testPlatform());
    const client = await open('alice');
    expect(client.getServerVersion()).toEqual({ name: 'desk', version: '3.1.0' });
    expect(client.getServerCapabilities()?.tools).toEqual({});
    const { tools } = await client.listTools();
    expect(tools).toEqual([
      {
        name: 'add',
        description: 'Adds two numbers',
        inputSchema: {
          type: 'object',
          properties: { a: { type: 'number' }, b: { type: 'number' } },
          required: ['a', 'b'],
        },
      },
      {
        name: 'whoami',
        description: 'Says who is calling',
        inputSchema: { type: 'object', properties: {} },
      },
      {
        name: 'open_vault',
        description: 'Opens the vault',
        inputSchema: { type: 'object', properties: {} },
      },
      {
        name: 'wait',
        description: 'Waits until cancelled',
        inputSchema: { type: 'object', properties: {} },
      },
    ]);
  });

  it('calls a tool: an object as JSON text and structured content', async () => {
    const client = await open('alice');
    const result = await client.callTool({ name: 'add', arguments: { a: 2, b: 40 } });
    expect(result).toEqual({
      content: [{ type: 'text', text: '{"sum":42}' }],
      structuredContent: { sum: 42 },
    });
  });

  it('reports a tool that throws as an isError result with its message, no stack', async () => {
    const client = await open('alice');
    const result = await client.callTool({ name: 'open_vault', arguments: {} });
    expect(result).toEqual({
      content: [{ type: 'text', text: 'the vault is locked' }],
      isError: true,
    });
  });

  it('refuses invalid arguments naming the bad one, without running the tool', async () => {
    const client = await open('alice');
    const before = probe.runs;
    const result = await client.callTool({ name: 'add', arguments: { a: 2, b: 'forty' } });
    expect(result).toEqual({
      content: [{ type: 'text', text: 'Invalid arguments for tool "add": /b: must be number' }],
      isError: true,
    });
    expect(probe.runs).toBe(before);
  });

  it('answers an unknown tool with a protocol error naming the known ones', async () => {
    const client = await open('alice');
    await expect(client.callTool({ name: 'nope', arguments: {} })).rejects.toThrow(
      'Unknown tool "nope" (tools: add, whoami, open_vault, wait)',
    );
  });

  it("gives each tool call its caller's identity as context.session", async () => {
    const [alice, bob] = await Promise.all([open('alice'), open('bob')]);
    const [seenByAlice, seenByBob] = await Promise.all([
      alice.callTool({ name: 'whoami', arguments: {} }),
      bob.callTool({ name: 'whoami', arguments: {} }),
    ]);
    expect(seenByAlice.content).toEqual([{ type: 'text', text: 'you are user:alice' }]);
    expect(seenByBob.content).toEqual([{ type: 'text', text: 'you are user:bob' }]);
  });

  it("aborts the tool's signal when the client cancels the call", async () => {
    const client = await open('alice');
    const started = new Promise<AbortSignal>((resolve) => (probe.waitStarted = resolve));
    const controller = new AbortController();
    const call = client.callTool({ name: 'wait', arguments: {} }, undefined, {
      signal: controller.signal,
    });
    const settled = call.then(
      () => 'resolved',
      () => 'rejected',
    );
    const signal = await started;
    const aborted = new Promise<unknown>((resolve) =>
      signal.addEventListener('abort', () => resolve(signal.reason)),
    );
    expect(signal.aborted).toBe(false);
    controller.abort('changed my mind');
    await expect(aborted).resolves.toMatchObject({
      name: 'McpCallCancelledError',
      message: 'The MCP client cancelled the call: changed my mind',
    });
    expect(await settled).toBe('rejected');
  });

  it("ends a cancelled call unanswered, and only its own caller's cancellation counts", async () => {
    const started = new Promise<AbortSignal>((resolve) => (probe.waitStarted = resolve));
    const dave = { authorization: 'Bearer dave' };
    const call = { jsonrpc: '2.0', id: 11, method: 'tools/call', params: { name: 'wait' } };
    const answer = post(url, call, dave);
    const signal = await started;
    const cancel = (headers: Record<string, string>) =>
      post(
        url,
        { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 11 } },
        headers,
      );
    expect((await cancel({ authorization: 'Bearer eve' })).status).toBe(202);
    expect(signal.aborted).toBe(false);
    expect((await cancel(dave)).status).toBe(202);
    expect(signal.aborted).toBe(true);
    const res = await answer;
    expect(res.status).toBe(200);
    // The stream ends with no answer to the call (what was written is SSE priming at most).
    const messages = (await res.text())
      .split('\n')
      .filter((line) => line.startsWith('data: ') && line.length > 'data: '.length)
      .map((line) => JSON.parse(line.slice('data: '.length)) as unknown);
    expect(messages).toEqual([]);
  });

  it("aborts the tool's signal when the HTTP client goes away", async () => {
    const started = new Promise<AbortSignal>((resolve) => (probe.waitStarted = resolve));
    const controller = new AbortController();
    const response = post(
      url,
      { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'wait', arguments: {} } },
      { authorization: 'Bearer carol' },
      controller.signal,
    );
    // Aborted only once the tool runs, so the request surely reached it.
    const signal = await started;
    const aborted = new Promise<unknown>((resolve) =>
      signal.addEventListener('abort', () => resolve(signal.reason)),
    );
    controller.abort();
    await response.then((res) => res.body?.cancel()).catch(() => undefined);
    await expect(aborted).resolves.toMatchObject({ name: 'ClientDisconnectedError' });
  });

  it('refuses a request without credentials with 401, running no tool', async () => {
    const before = probe.runs;
    const call = { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'add' } };
    const res = await post(url, call);
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe('Bearer realm="mcp"');
    expect(await res.json()).toEqual({ error: 'A bearer token is required' });
    await expect(connect(url)).rejects.toMatchObject({ code: 401 });
    expect(probe.runs).toBe(before);
  });

  it('answers GET and DELETE with 405 and Allow: POST (a stateless server)', async () => {
    for (const method of ['GET', 'DELETE']) {
      const res = await fetch(url, {
        method,
        headers: { authorization: 'Bearer alice', accept: 'text/event-stream' },
      });
      expect(res.status).toBe(405);
      expect(res.headers.get('allow')).toBe('POST');
      expect(await res.json()).toMatchObject({ jsonrpc: '2.0', id: null });
    }
  });
});

describe('McpServerModule with its own path, name, tools and guards', () => {
  const app = new App({
    providers: [DeskTools],
    imports: [
      McpServerModule.forRoot({
        path: '/tools/mcp',
        guards: [KeyGuard],
        name: 'calculator',
        version: '2.0.0',
        tools: ['whoami', 'add'],
      }),
    ],
    logger: false,
    cwd: '/nonexistent',
  });
  let url: string;
  const key = { 'x-api-key': 'open-sesame' };

  beforeAll(async () => {
    url = `${await start(app)}/tools/mcp`;
  });
  afterAll(() => app.close());

  it('serves only the named tools, under its own name, behind its guard', async () => {
    const before = probe.runs;
    expect((await post(url, INITIALIZE)).status).toBe(401);
    await expect(connect(url)).rejects.toMatchObject({ code: 401 });
    expect(probe.runs).toBe(before);

    const client = await connect(url, key);
    expect(client.getServerVersion()).toEqual({ name: 'calculator', version: '2.0.0' });
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['whoami', 'add']);
    await client.close();
  });

  it('gives clients with different session cookies their own session', async () => {
    const cookies = await Promise.all(
      [1, 2].map(async () => {
        const res = await post(url, INITIALIZE, key);
        await res.body?.cancel();
        const cookie = res.headers.getSetCookie().find((c) => c.startsWith(`${SESSION_COOKIE}=`));
        return cookie!.split(';')[0];
      }),
    );
    expect(cookies[0]).not.toBe(cookies[1]);
    const seen = await Promise.all(
      cookies.map(async (cookie) => {
        const client = await connect(url, { ...key, cookie });
        const first = await client.callTool({ name: 'whoami', arguments: {} });
        const second = await client.callTool({ name: 'whoami', arguments: {} });
        await client.close();
        return [first.content, second.content] as const;
      }),
    );
    const sessionIds = cookies.map((cookie) => cookie.split('=')[1].split('.')[0]);
    expect(seen).toEqual(
      sessionIds.map((id) => {
        const content = [{ type: 'text', text: `you are session:${id}` }];
        return [content, content];
      }),
    );
  });
});

describe('McpServerModule misconfigured', () => {
  it('stops the app at start-up when `tools` names an unknown tool', async () => {
    const app = new App({
      providers: [DeskTools],
      imports: [McpServerModule.forRoot({ tools: ['add', 'nope'] })],
      logger: false,
      cwd: '/nonexistent',
    });
    await expect(app.init()).rejects.toThrow(
      /nope is not a @Tool\(\).* \(tools: add, whoami, open_vault, wait\)/,
    );
  });

  it('takes its options from a factory with forRootAsync', async () => {
    const app = new App({
      providers: [DeskTools],
      imports: [
        McpServerModule.forRootAsync({
          path: '/async-mcp',
          useFactory: () => ({ name: 'from-factory', tools: ['add'] }),
        }),
      ],
      logger: false,
      cwd: '/nonexistent',
    });
    const client = await connect(`${await start(app)}/async-mcp`);
    expect(client.getServerVersion()).toEqual({ name: 'from-factory', version: '0.1.0' });
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['add']);
    await client.close();
    await app.close();
  });
});
