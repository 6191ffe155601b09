// The MCP Inspector's CLI (`mcp-inspector-cli --cli`, a separate process, offline) lists and
// calls the tools an app serves with `McpServerModule`, behind the api template's API key guard
// installed as a global guard.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Injectable } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { execFile } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { App, McpServerModule, Tool } from 'toolkit';
import { ApiKeyGuard } from '../../../templates/api/src/api-key.guard.js';

const KEY = 'inspector-key-7b3e';

const INSPECTOR = join(
  dirname(fileURLToPath(import.meta.url)),
  '../../../node_modules/@modelcontextprotocol/inspector-cli/build/cli.js',
);

@Injectable()
class GreetingTools {
  @Tool({
    description: 'Greets someone',
    parameters: {
      type: 'object',
      properties: { name: { type: 'string' }, times: { type: 'integer', minimum: 1 } },
      required: ['name', 'times'],
    },
  })
  greet({ name, times }: { name: string; times: number }) {
    return Array.from({ length: times }, () => `Hello, ${name}!`).join(' ');
  }
}

interface Outcome {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the Inspector CLI against `url`; no overall time-out beyond jest's per-test one. */
function inspect(url: string, ...args: string[]): Promise<Outcome> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [INSPECTOR, '--cli', url, '--transport', 'http', ...args],
      // Its build dir as cwd: the CLI looks for its own package.json relative to the cwd
      // (`existsSync('../package.json')`) but imports it relative to itself.
      { cwd: dirname(INSPECTOR), env: { ...process.env, NODE_OPTIONS: '' } },
      (error, stdout, stderr) => {
        const code = error ? ((error as { code?: unknown }).code as number | null) : 0;
        resolve({ code: typeof code === 'number' ? code : 1, stdout, stderr });
      },
    );
  });
}

describe('the MCP Inspector CLI against an app serving its tools', () => {
  const saved = process.env.API_KEYS;
  let app: App;
  let url: string;

  beforeAll(async () => {
    process.env.API_KEYS = KEY;
    app = new App({
      title: 'greeter',
      providers: [GreetingTools, { provide: APP_GUARD, useClass: ApiKeyGuard }],
      imports: [McpServerModule.forRoot()],
      logger: false,
      cwd: '/nonexistent',
    });
    const server = await app.run({ port: 0, announce: false });
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
  });
  afterAll(async () => {
    await app.close();
    if (saved === undefined) delete process.env.API_KEYS;
    else process.env.API_KEYS = saved;
  });

  it('lists the tools', async () => {
    const outcome = await inspect(url, '--header', `X-Api-Key: ${KEY}`, '--method', 'tools/list');
    expect(outcome).toMatchObject({ code: 0 });
    expect(JSON.parse(outcome.stdout)).toEqual({
      tools: [
        {
          name: 'greet',
          description: 'Greets someone',
          inputSchema: {
            type: 'object',
            properties: { name: { type: 'string' }, times: { type: 'integer', minimum: 1 } },
            required: ['name', 'times'],
          },
        },
      ],
    });
  });

  it('calls a tool with --tool-arg values', async () => {
    const outcome = await inspect(
      url,
      '--header',
      `X-Api-Key: ${KEY}`,
      '--method',
      'tools/call',
      '--tool-name',
      'greet',
      '--tool-arg',
      'name=Ada',
      'times=2',
    );
    expect(outcome).toMatchObject({ code: 0 });
    expect(JSON.parse(outcome.stdout)).toEqual({
      content: [{ type: 'text', text: 'Hello, Ada! Hello, Ada!' }],
    });
  });

  it('fails without the API key', async () => {
    const outcome = await inspect(url, '--method', 'tools/list');
    expect(outcome.code).not.toBe(0);
    expect(outcome.stderr).toContain('{"error":"An API key is required"}');
  });
});
