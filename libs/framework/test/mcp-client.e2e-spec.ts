import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Controller, Injectable, type LoggerService } from '@nestjs/common';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App, Arg, LLM, McpClient, McpServerModule, Route, Tool, ToolRegistry } from 'toolkit';
import { loadConfig } from '../src/config/config.loader.js';
import type { McpServers } from 'toolkit/providers';
import { TestClient } from 'toolkit/testing';
import { everythingStdio, freePort } from '../../providers/test/mcp/support/everything-server.js';

/** Records what the app logs, so a test can read its warnings. */
class RecordingLogger implements LoggerService {
  readonly warnings: string[] = [];
  log(): void {}
  error(): void {}
  warn(message: unknown): void {
    this.warnings.push(String(message));
  }
}

@Injectable()
class LocalTools {
  @Tool({ description: 'Says hello', parameters: { type: 'object', properties: {} } })
  hello() {
    return 'hello';
  }
}

@Controller()
class AgentController {
  constructor(
    private readonly llm: LLM,
    private readonly tools: ToolRegistry,
  ) {}

  @Route('/agent', { methods: ['POST'] })
  async agent(@Arg('message') message: string) {
    const { text } = await this.llm.generate(message, { tools: this.tools.all() });
    return { text };
  }

  @Route('/tools', { methods: ['GET'] })
  list() {
    return {
      all: this.tools.all().map((t) => t.name),
      decorated: this.tools.decorated().map((t) => t.name),
    };
  }

  @Route('/echo', { methods: ['POST'] })
  async echo(@Arg('message') message: string) {
    const [tool] = this.tools.pick('everything__echo');
    const signal = new AbortController().signal;
    return { result: await tool.execute({ message }, { signal, callId: 'direct', context: {} }) };
  }
}

const appWith = (servers: McpServers, logger: LoggerService | false = false) =>
  new App({
    controllers: [AgentController],
    providers: [LocalTools],
    logger,
    cwd: '/nonexistent',
    config: { llm: { default_model: 'echo' }, mcp: { servers, timeout: 20 } },
    // It serves its own tools over MCP too: never the MCP servers' ones it uses.
    imports: [McpServerModule.forRoot()],
  });

describe('an App whose config lists MCP servers', () => {
  let app: App;

  beforeAll(async () => {
    app = appWith({ everything: everythingStdio() });
    await app.init();
  });
  afterAll(() => app.close());

  it('has ToolRegistry include the MCP tools after the @Tool() ones, decorated() only the latter', async () => {
    const res = await new TestClient(app).get('/tools');
    const { all, decorated } = res.json<{ all: string[]; decorated: string[] }>();
    expect(decorated).toEqual(['hello']);
    expect(all[0]).toBe('hello');
    expect(all).toEqual(expect.arrayContaining(['everything__echo', 'everything__get-sum']));
  });

  it('serves only its @Tool() methods at /mcp, never the tools of the MCP servers it uses', async () => {
    const served = appWith({ everything: everythingStdio() });
    const server = await served.run({ host: '127.0.0.1', port: 0 });
    const client = new Client({ name: 'outside', version: '1.0.0' });
    try {
      const port = (server.address() as AddressInfo).port;
      await client.connect(
        new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`)),
      );
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toEqual(['hello']);
      await expect(
        client.callTool({ name: 'everything__echo', arguments: { message: 'hi' } }),
      ).rejects.toThrow(/everything__echo/);
    } finally {
      await client.close();
      await served.close();
    }
  });

  it('lets a route call an MCP tool through the model and directly', async () => {
    const res = await new TestClient(app).post('/agent', {
      json: { message: '/tool everything__echo {"message":"hi"}' },
    });
    expect(res.json()).toEqual({ text: 'Tool everything__echo returned Echo: hi.' });
    const direct = await new TestClient(app).post('/echo', { json: { message: 'yo' } });
    expect(direct.json()).toEqual({ result: 'Echo: yo' });
  });
});

describe('MCP servers that are down at start-up', () => {
  it('starts the app with a warning naming a server that is down', async () => {
    const logger = new RecordingLogger();
    const port = await freePort();
    const app = appWith({ offline: { url: `http://127.0.0.1:${port}/mcp` } }, logger);
    try {
      await app.init();
      expect(logger.warnings).toEqual([
        expect.stringMatching(/^MCP server "offline" is not reachable: /),
      ]);
      const res = await new TestClient(app).get('/tools');
      expect(res.json()).toEqual({ all: ['hello'], decorated: ['hello'] });
    } finally {
      await app.close();
    }
  });

  it('stops start-up with an error naming a required server that is down', async () => {
    const port = await freePort();
    const app = appWith({ vital: { url: `http://127.0.0.1:${port}/mcp`, required: true } });
    await expect(app.init()).rejects.toThrow(/^MCP server "vital" is not reachable: /);
    await app.close().catch(() => undefined);
  });

  it('stops start-up naming both when an MCP tool has the name of a @Tool()', async () => {
    @Injectable()
    class Clashing {
      @Tool({ name: 'everything__echo', description: 'Mine', parameters: { type: 'object' } })
      mine() {
        return 'mine';
      }
    }
    const app = new App({
      providers: [Clashing],
      logger: false,
      cwd: '/nonexistent',
      config: { mcp: { servers: { everything: everythingStdio() } } },
    });
    await expect(app.init()).rejects.toThrow(
      /"everything__echo" is both @Tool\(\) Clashing\.mine and a tool of MCP server "everything"/,
    );
    await app.close().catch(() => undefined);
  });
});

describe("MCP servers' ${VAR} references", () => {
  it("are read from the environment the configuration was loaded from, the project's .env included", async () => {
    const served = appWith({});
    const server = await served.run({ host: '127.0.0.1', port: 0 });
    const root = mkdtempSync(join(tmpdir(), 'tk-mcp-env-'));
    const port = (server.address() as AddressInfo).port;
    writeFileSync(
      join(root, 'toolkit.yaml'),
      [
        'mcp:',
        '  servers:',
        '    remote:',
        `      url: http://127.0.0.1:${port}/mcp`,
        '      headers: { Authorization: "Bearer ${MCP_TOKEN_FROM_DOTENV}" }',
        '',
      ].join('\n'),
    );
    writeFileSync(join(root, '.env'), 'MCP_TOKEN_FROM_DOTENV=secret\n');
    // Loaded from an environment of its own: the variable is in the project's .env only.
    const client = new McpClient(loadConfig({ cwd: root, env: {} }));
    try {
      await client.onModuleInit();
      expect(client.tools().map((tool) => tool.name)).toEqual(['remote__hello']);
      expect(process.env.MCP_TOKEN_FROM_DOTENV).toBeUndefined();
    } finally {
      await client.onApplicationShutdown();
      await served.close();
      rmSync(root, { recursive: true, force: true });
    }
  });
});
