/**
 * `toolkit mcp`: the official SDK's stdio client starts the built CLI in a project and lists and
 * calls the app's `@Tool()` methods; what the app writes to stdout (Nest's logger,
 * `console.log`) never reaches the protocol.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { existsSync, readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { assertCliBuilt, CLI_BIN, runCli } from './support/cli-process.js';
import { createTempProject, type TempProject } from './support/temp-project.js';

const TOOLS_APP = `import { Injectable, Logger } from '@nestjs/common';
import { writeFileSync } from 'node:fs';
import { App, Tool, type ToolContext } from 'toolkit';

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
    console.log('adding on stdout');
    new Logger('desk').log('adding through Nest');
    return { sum: a + b };
  }

  @Tool({ description: 'Says who is calling', parameters: { type: 'object', properties: {} } })
  whoami(_args: unknown, { context }: ToolContext) {
    return 'you are ' + String(context.session);
  }

  @Tool({ description: 'Opens the vault', parameters: { type: 'object', properties: {} } })
  open_vault(): never {
    throw new Error('the vault is locked');
  }

  @Tool({ description: 'Waits until cancelled', parameters: { type: 'object', properties: {} } })
  wait(_args: unknown, { signal }: ToolContext) {
    writeFileSync('wait-started.log', 'yes');
    return new Promise((_, reject) =>
      signal.addEventListener('abort', () => {
        writeFileSync('wait-aborted.log', 'yes');
        reject(new Error('stopped'));
      }),
    );
  }
}

export const app = new App({
  title: 'desk',
  version: '1.2.3',
  providers: [DeskTools],
  logger: ['log', 'error', 'warn'],
});
`;

/** Waits for `file` to exist, polling; the test's own time-out bounds it. */
async function appears(file: string): Promise<void> {
  while (!existsSync(file)) await sleep(25);
}

describe('toolkit mcp', () => {
  let project: TempProject;
  let client: Client;
  let stderr = '';

  beforeAll(async () => {
    assertCliBuilt();
    project = createTempProject(
      {
        'app.ts': TOOLS_APP,
        'package.json': JSON.stringify({ name: 'desk', type: 'module' }),
      },
      ['toolkit', '@nestjs'],
    );
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI_BIN, 'mcp'],
      cwd: project.dir,
      env: { PATH: process.env.PATH ?? '', NO_COLOR: '1' },
      stderr: 'pipe',
    });
    transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    client = new Client({ name: 'mcp-cli-spec', version: '1.0.0' });
    await client.connect(transport);
  }, 60_000);

  afterAll(async () => {
    await client?.close();
    project?.cleanup();
  });

  it('announces the app and lists its tools with their schemas', async () => {
    expect(client.getServerVersion()).toEqual({ name: 'desk', version: '1.2.3' });
    const { tools } = await client.listTools();
    expect(tools.map(({ name, description }) => ({ name, description }))).toEqual([
      { name: 'add', description: 'Adds two numbers' },
      { name: 'whoami', description: 'Says who is calling' },
      { name: 'open_vault', description: 'Opens the vault' },
      { name: 'wait', description: 'Waits until cancelled' },
    ]);
    expect(tools[0].inputSchema).toEqual({
      type: 'object',
      properties: { a: { type: 'number' }, b: { type: 'number' } },
      required: ['a', 'b'],
    });
  });

  it('calls a tool, and what the app logs goes to stderr, not into the protocol', async () => {
    const result = await client.callTool({ name: 'add', arguments: { a: 1, b: 2 } });
    expect(result).toEqual({
      content: [{ type: 'text', text: '{"sum":3}' }],
      structuredContent: { sum: 3 },
    });
    const who = await client.callTool({ name: 'whoami', arguments: {} });
    expect(who.content).toEqual([{ type: 'text', text: 'you are stdio' }]);
    while (!stderr.includes('adding through Nest')) await sleep(25);
    expect(stderr).toContain('adding on stdout');
    expect(stderr).toContain('desk: serving 4 tool(s) over MCP (stdio)');
  });

  it('reports a throwing tool and invalid arguments as isError results', async () => {
    expect(await client.callTool({ name: 'open_vault', arguments: {} })).toEqual({
      content: [{ type: 'text', text: 'the vault is locked' }],
      isError: true,
    });
    expect(await client.callTool({ name: 'add', arguments: { a: 1 } })).toEqual({
      content: [
        {
          type: 'text',
          text: `Invalid arguments for tool "add": /b: must have required property 'b'`,
        },
      ],
      isError: true,
    });
  });

  it("aborts the tool's signal when the client cancels the call", async () => {
    const controller = new AbortController();
    const call = client
      .callTool({ name: 'wait', arguments: {} }, undefined, { signal: controller.signal })
      .then(
        () => 'resolved',
        () => 'rejected',
      );
    await appears(project.path('wait-started.log'));
    expect(existsSync(project.path('wait-aborted.log'))).toBe(false);
    controller.abort('enough');
    await appears(project.path('wait-aborted.log'));
    expect(readFileSync(project.path('wait-aborted.log'), 'utf8')).toBe('yes');
    expect(await call).toBe('rejected');
  });
});

describe('toolkit mcp without an app', () => {
  it('says which file it looked for, on stderr, and exits 1 with nothing on stdout', async () => {
    assertCliBuilt();
    const project = createTempProject({ 'package.json': '{"type":"module"}' }, ['toolkit']);
    try {
      const result = await runCli(['mcp', '--app', 'server:app'], { cwd: project.dir });
      expect(result).toMatchObject({ code: 1, stdout: '' });
      expect(result.stderr).toContain(
        'Application file not found: no server.ts, server.mts, server.js or server.mjs',
      );
    } finally {
      project.cleanup();
    }
  });
});
