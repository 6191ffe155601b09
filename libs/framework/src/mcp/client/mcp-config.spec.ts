import { afterEach, describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError } from '../../../../providers/src/errors/config.error.js';
import { loadConfig } from '../../config/config.loader.js';

const dirs: string[] = [];
function project(yaml?: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'toolkit-mcp-config-'));
  dirs.push(dir);
  if (yaml !== undefined) writeFileSync(join(dir, 'toolkit.yaml'), yaml);
  return dir;
}
afterEach(() => dirs.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));

function failure(run: () => unknown): ConfigError {
  try {
    run();
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

describe('mcp.* configuration', () => {
  it('has no servers, a 30 s timeout and a 1 MiB result limit by default', () => {
    expect(loadConfig({ cwd: project(), env: {} }).mcp).toEqual({
      servers: {},
      timeout: 30,
      max_result_size: 1024 * 1024,
    });
  });

  it('reads stdio and Streamable HTTP servers from toolkit.yaml', () => {
    const yaml = [
      'mcp:',
      '  timeout: 10s',
      '  servers:',
      '    files:',
      '      command: npx',
      '      args: [-y, "@modelcontextprotocol/server-filesystem", ./docs]',
      '      env: { FILES_TOKEN: "${FILES_TOKEN}" }',
      '    github:',
      '      url: https://api.githubcopilot.com/mcp/',
      '      headers: { Authorization: "Bearer ${GITHUB_TOKEN}" }',
      '      required: true',
      '      timeout: 5',
    ].join('\n');
    const config = loadConfig({ cwd: project(yaml), env: {} });
    expect(config.mcp.timeout).toBe(10);
    expect(config.mcp.servers).toEqual({
      files: {
        command: 'npx',
        args: ['-y', '@modelcontextprotocol/server-filesystem', './docs'],
        env: { FILES_TOKEN: '${FILES_TOKEN}' },
      },
      github: {
        url: 'https://api.githubcopilot.com/mcp/',
        headers: { Authorization: 'Bearer ${GITHUB_TOKEN}' },
        required: true,
        timeout: 5,
      },
    });
  });

  it('reads TOOLKIT_MCP_SERVERS as JSON and code overrides', () => {
    const env = { TOOLKIT_MCP_SERVERS: '{"everything":{"command":"mcp-server-everything"}}' };
    expect(loadConfig({ cwd: project(), env }).mcp.servers).toEqual({
      everything: { command: 'mcp-server-everything' },
    });
    const overrides = { mcp: { servers: { local: { url: 'http://127.0.0.1:3001/mcp' } } } };
    expect(loadConfig({ cwd: project(), env: {}, overrides }).mcp.servers).toEqual(
      overrides.mcp.servers,
    );
  });

  it.each([
    [
      'a literal secret in a header',
      'mcp:\n  servers:\n    gh:\n      url: https://x.test/mcp\n      headers: { Authorization: Bearer sk-123 }\n',
      /^Invalid configuration: mcp\.servers\.gh\.headers\.Authorization must name an environment variable.* in toolkit\.yaml$/,
    ],
    [
      'neither command nor url',
      'mcp:\n  servers:\n    gh:\n      args: [a]\n',
      /^Invalid configuration: mcp\.servers\.gh must have either a command \(stdio\) or a url/,
    ],
    [
      'an unknown key',
      'mcp:\n  servers:\n    gh:\n      url: https://x.test/mcp\n      command2: x\n',
      /^Invalid configuration: mcp\.servers\.gh\.command2 is not a known key \(known: url, headers, required, timeout\)/,
    ],
    [
      'a url that is not http',
      'mcp:\n  servers:\n    gh:\n      url: ftp://x.test\n',
      /mcp\.servers\.gh\.url must be an http: or https: URL/,
    ],
    [
      'credentials in the url',
      'mcp:\n  servers:\n    gh:\n      url: https://me:sk-123@x.test/mcp\n',
      /mcp\.servers\.gh\.url must not hold credentials/,
    ],
    [
      'a server name with "__"',
      'mcp:\n  servers:\n    a__b:\n      command: x\n',
      /mcp\.servers\.a__b must be 1-32 letters, digits, "_" or "-", without "__"/,
    ],
    [
      'a timeout of 0',
      'mcp:\n  servers:\n    a:\n      command: x\n      timeout: 0\n',
      /mcp\.servers\.a\.timeout must be a positive number/,
    ],
  ])('refuses %s, naming the key', (_what, yaml, message) => {
    const error = failure(() => loadConfig({ cwd: project(yaml), env: {} }));
    expect(error.message).toMatch(message);
    expect(error.message).not.toContain('sk-123');
  });
});
