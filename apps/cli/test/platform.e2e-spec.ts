/**
 * `toolkit dev` and `toolkit start` serve an app on the platform its configuration names
 * (`app.platform` in toolkit.yaml, or `TOOLKIT_APP_PLATFORM`), and say what to install when
 * that platform's Nest package is missing.
 */
import { beforeAll, describe, expect, it } from '@jest/globals';
import { assertCliBuilt, freePort, runCli, startCli } from './support/cli-process.js';
import { cleanAfterEach, cleanEnv } from './support/dev-helpers.js';
import { createTempProject, TINY_APP } from './support/temp-project.js';

const FASTIFY_YAML = 'app:\n  platform: fastify\n';

describe('toolkit dev/start on Fastify', () => {
  const { track, watch } = cleanAfterEach();

  beforeAll(() => assertCliBuilt());

  it('exits 1 with the install command when @nestjs/platform-fastify cannot be resolved', async () => {
    const project = track(createTempProject({ 'app.ts': TINY_APP, 'toolkit.yaml': FASTIFY_YAML }));
    const result = await runCli(['dev'], { cwd: project.dir, env: cleanEnv() });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('@nestjs/platform-fastify is not installed');
    expect(result.stderr).toContain('npm install @nestjs/platform-fastify');
  });

  it('exits 1 naming the key and its source for a platform toolkit does not run on', async () => {
    const project = track(createTempProject({ 'app.ts': TINY_APP }, ['toolkit']));
    const env = { ...cleanEnv(), TOOLKIT_APP_PLATFORM: 'koa' };
    const result = await runCli(['dev'], { cwd: project.dir, env });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      'app.platform must be one of express, fastify (got "koa") in the environment (TOOLKIT_APP_PLATFORM)',
    );
  });

  it.each([
    ['start', ['start'], { 'toolkit.yaml': FASTIFY_YAML }, {}],
    ['dev', ['dev', '--no-reload'], {}, { TOOLKIT_APP_PLATFORM: 'fastify' }],
  ])(
    'toolkit %s serves the app on Fastify and exits 0 on SIGTERM',
    async (_name, command, files, extraEnv) => {
      const project = track(
        createTempProject(
          { 'server.js': TINY_APP, 'package.json': '{"type":"module"}', ...files },
          ['toolkit'],
        ),
      );
      const port = await freePort();
      const cli = watch(
        startCli([...command, '-p', String(port), '-h', '127.0.0.1', '-a', 'server:app'], {
          cwd: project.dir,
          env: { ...cleanEnv(), ...extraEnv },
          timeoutMs: 60_000,
        }),
      );
      await cli.waitFor(/server process (\d+)/, 30_000);
      const response = await fetch(`http://127.0.0.1:${port}/health`);
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ status: 'healthy' });
      // Express announces itself; Fastify does not.
      expect(response.headers.get('x-powered-by')).toBeNull();
      const missing = await fetch(`http://127.0.0.1:${port}/health`, { method: 'DELETE' });
      expect([missing.status, await missing.json()]).toEqual([
        405,
        { error: 'Method Not Allowed', allowed: ['GET', 'HEAD'] },
      ]);
      cli.child.kill('SIGTERM');
      expect(await cli.exited).toEqual({ code: 0, signal: null });
    },
    90_000,
  );
});
