import { describe, expect, it } from '@jest/globals';
import {
  everythingStdio,
  freePort,
} from '../../../../libs/providers/test/mcp/support/everything-server.js';
import { renderDoctorReport } from './doctor-check.js';
import { probeMcpServers } from './mcp-probes.js';

const settings = (servers: Parameters<typeof probeMcpServers>[0]['servers']) => ({
  servers,
  timeout: 20,
  max_result_size: 1024 * 1024,
});

describe('toolkit doctor: mcp.servers', () => {
  it('reports a reachable server with its tool count, and nothing without servers', async () => {
    expect(await probeMcpServers(settings({}), {})).toEqual([]);
    const [check] = await probeMcpServers(settings({ everything: everythingStdio() }), process.env);
    expect(check).toMatchObject({ name: 'mcp', status: 'ok' });
    expect(check.detail).toMatch(/^everything \(stdio: .*node\) connected, \d+ tools$/);
  });

  it('warns on a server that is down and fails on a required one, each with a fix', async () => {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}/mcp`;
    const checks = await probeMcpServers(
      settings({ optional: { url }, vital: { url, required: true } }),
      {},
    );
    expect(checks).toEqual([
      expect.objectContaining({
        status: 'warn',
        fix: expect.stringContaining('mcp.servers.optional.url'),
      }),
      expect.objectContaining({
        status: 'fail',
        fix: expect.stringContaining('mcp.servers.vital.url'),
      }),
    ]);
    expect(checks[1].detail).toMatch(
      /^vital \(http: http:\/\/127\.0\.0\.1:\d+\/mcp\) unreachable: MCP server "vital" is not reachable/,
    );
    expect(renderDoctorReport(checks)).toMatch(/^warn mcp {2}optional .*\nFAIL mcp {2}vital /m);
  });

  it('names the variable a header needs when it is not set, never its value', async () => {
    const [check] = await probeMcpServers(
      settings({
        gh: { url: 'http://127.0.0.1:9/mcp', headers: { Authorization: 'Bearer ${GH_TOKEN_X}' } },
      }),
      {},
    );
    expect(check).toMatchObject({
      status: 'warn',
      fix: 'put GH_TOKEN_X=<value> in .env (mcp.servers.gh reads it)',
    });
  });
});
