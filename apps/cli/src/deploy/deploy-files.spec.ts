import { describe, expect, it } from '@jest/globals';
import { parse } from 'smol-toml';
import { renderProcfile, renderServerlessJson, renderVmhostToml } from './deploy-files.js';

/** The parts of vmhost.toml the tests read. */
interface VmhostShape {
  app: string;
  build: unknown;
  env: unknown;
  services: unknown[];
}

describe('deployment files', () => {
  it('vmhost.toml has the app, the base builder, PORT 8080 and a TCP service with /health/ready checks', () => {
    const config = parse(renderVmhostToml({ appName: 'my-bot' })) as unknown as VmhostShape;
    expect(config.app).toBe('my-bot');
    expect(config).not.toHaveProperty('primary_region');
    expect(config.build).toEqual({ builder: 'paketobuildpacks/builder:base' });
    expect(config.env).toEqual({ PORT: '8080' });
    expect(config.services).toEqual([
      expect.objectContaining({
        internal_port: 8080,
        protocol: 'tcp',
        http_checks: [
          expect.objectContaining({ method: 'get', path: '/health/ready', protocol: 'http' }),
        ],
      }),
    ]);
  });

  it('vmhost.toml writes primary_region only when a region is given, escaping values', () => {
    const config = parse(renderVmhostToml({ appName: 'my-bot', region: 'ams' }));
    expect(config.primary_region).toBe('ams');
    expect(parse(renderVmhostToml({ appName: 'a"b\\c' })).app).toBe('a"b\\c');
  });

  it('Procfile is one web: line starting the app in production', () => {
    expect(renderProcfile()).toBe('web: node_modules/.bin/toolkit start\n');
  });

  it('serverless.json builds the entry with @vercel/node and routes everything to it', () => {
    expect(JSON.parse(renderServerlessJson('app.ts'))).toEqual({
      builds: [{ src: 'app.ts', use: '@vercel/node' }],
      routes: [{ src: '/(.*)', dest: 'app.ts' }],
    });
  });
});
