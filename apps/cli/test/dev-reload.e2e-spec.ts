import { beforeAll, describe, expect, it } from '@jest/globals';
import { assertCliBuilt, eventually, freePort, isAlive, startCli } from './support/cli-process.js';
import { cleanAfterEach, cleanEnv, DI_APP, getJson } from './support/dev-helpers.js';
import { createTempProject, TINY_APP } from './support/temp-project.js';

describe('toolkit dev: serving with reload', () => {
  const { track, watch } = cleanAfterEach();

  beforeAll(() => assertCliBuilt());

  it('serves with DI, reloads on a .ts change, and exits 0 on SIGINT leaving no child', async () => {
    const project = track(
      createTempProject({ 'app.ts': DI_APP, 'greeting.ts': "export const greeting = 'hello';\n" }, [
        'toolkit',
        '@nestjs',
      ]),
    );
    const port = await freePort();
    const cli = watch(
      startCli(['dev', '--port', String(port)], {
        cwd: project.dir,
        env: cleanEnv(),
        timeoutMs: 90_000,
      }),
    );

    await cli.waitFor(/Press Ctrl\+C to stop/);
    const banner = cli.stdout();
    expect(banner).toContain(`URL:    http://127.0.0.1:${port}`);
    expect(banner).toMatch(/Host: +127\.0\.0\.1/);
    expect(banner).toMatch(new RegExp(`Port: +${port}`));
    expect(banner).toMatch(/App: +app:app \(app\.ts\)/);
    // The banner names everything whose change restarts the app.
    expect(banner).toMatch(/Reload: +on \(\.ts files, toolkit\.yaml, \.env and prompts\/;/);
    expect(banner).toMatch(/LLM: +echo \(offline/);
    await cli.waitFor(/Warning: .*offline "echo" model/);

    const first = await cli.waitFor(
      /Serving di-demo v2\.0\.0 at \S+ \(server process (\d+)/,
      30_000,
    );
    const firstPid = Number(first[1]);
    expect(await getJson(`http://127.0.0.1:${port}/health`)).toEqual({
      status: 200,
      body: { status: 'healthy' },
    });
    expect(await getJson(`http://127.0.0.1:${port}/greet`)).toEqual({
      status: 200,
      body: { message: 'hello' },
    });

    // Changes under ignored folders must not restart the server; the .ts edit after them must.
    project.write('node_modules/ignored.ts', 'export {};\n');
    project.write('dist/ignored.ts', 'export {};\n');
    project.write('greeting.ts', "export const greeting = 'changed';\n");
    const second = await cli.waitFor(/server process (\d+)/, 30_000, 2);
    const secondPid = Number(second[1]);
    expect(secondPid).not.toBe(firstPid);
    expect(cli.stdout()).toMatch(/Change detected in greeting\.ts; restarting/);
    expect(cli.stdout()).not.toMatch(/Change detected in .*ignored/);
    expect(await eventually(() => !isAlive(firstPid))).toBe(true);
    expect(await getJson(`http://127.0.0.1:${port}/greet`)).toEqual({
      status: 200,
      body: { message: 'changed' },
    });

    cli.child.kill('SIGINT');
    const exit = await cli.exited;
    expect(exit).toEqual({ code: 0, signal: null });
    expect(isAlive(secondPid)).toBe(false);
    await expect(fetch(`http://127.0.0.1:${port}/health`)).rejects.toThrow();
  }, 120_000);

  it('keeps watching after the app crashes, and serves again once the file is fixed', async () => {
    const project = track(createTempProject({ 'app.ts': 'export const app = ;\n' }, ['toolkit']));
    const port = await freePort();
    const cli = watch(
      startCli(['dev', '-p', String(port)], {
        cwd: project.dir,
        env: cleanEnv(),
        timeoutMs: 90_000,
      }),
    );
    await cli.waitFor(/Error: cannot load app\.ts/, 30_000);
    await cli.waitFor(
      /the app exited with code 1; fix the error and save a file to restart/,
      30_000,
    );
    expect(cli.child.exitCode).toBeNull();
    project.write('app.ts', TINY_APP);
    const served = await cli.waitFor(/Serving tiny v1\.0\.0 .*server process (\d+)/, 30_000);
    expect(await getJson(`http://127.0.0.1:${port}/health`)).toEqual({
      status: 200,
      body: { status: 'healthy' },
    });
    cli.child.kill('SIGINT');
    expect(await cli.exited).toEqual({ code: 0, signal: null });
    expect(isAlive(Number(served[1]))).toBe(false);
  }, 120_000);
});
