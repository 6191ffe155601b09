import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  assertCliBuilt,
  eventually,
  freePort,
  REPO_ROOT,
  runCli,
  type CliResult,
} from './support/cli-process.js';
import { minimalPath } from './support/fake-clients.js';
import {
  generateProject,
  npmInstall,
  runProgram,
  userEnv,
  type GeneratedProject,
} from './support/generated-project.js';

/** The toolkit's own package name and version: what the project depends on and what npm packs. */
const TOOLKIT = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as {
  name: string;
  version: string;
};
const TARBALL = `${TOOLKIT.name.replace(/^@/, '').replace('/', '-')}-${TOOLKIT.version}.tgz`;

/** A fake `heroku` client: records nothing, answers every call. */
const FAKE_HEROKU = '#!/bin/sh\necho "fake heroku $*"\n';

describe('toolkit deploy makes a project that builds where no toolkit checkout exists', () => {
  let project: GeneratedProject;
  let deployed: CliResult;
  let copy: string;
  let server: ChildProcess | undefined;
  /** A folder holding the fake `heroku`, first on PATH for each deploy. */
  let bin: string;

  beforeAll(async () => {
    assertCliBuilt();
    project = await generateProject('chatbot', 'deploy-build');
    await npmInstall(project);
    const git = (...args: string[]) =>
      runProgram('git', args, { cwd: project.dir, timeoutMs: 30_000 });
    await git('init', '-q');
    await git('add', '-A');
    await git('-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-qm', 'init');
    bin = mkdtempSync(join(tmpdir(), 'toolkit-fake-heroku-'));
    writeFileSync(join(bin, 'heroku'), FAKE_HEROKU, { mode: 0o755 });
    deployed = await runCli(['deploy', 'githost', '-n', 'deploy-build'], {
      cwd: project.dir,
      env: userEnv({ PATH: `${bin}:${minimalPath()}` }),
    });
  }, 300_000);

  afterAll(() => {
    if (server?.pid !== undefined && server.exitCode === null) process.kill(-server.pid, 'SIGKILL');
    project?.cleanup();
    if (copy) rmSync(copy, { recursive: true, force: true });
    if (bin) rmSync(bin, { recursive: true, force: true });
  });

  it('packs the local toolkit into vendor/ and points package.json and its lock there', () => {
    expect({ code: deployed.code, stderr: deployed.stderr }).toEqual({
      code: 0,
      stderr: expect.any(String),
    });
    expect(deployed.stderr).toContain(
      `${TOOLKIT.name} is a local folder in package.json (file:${REPO_ROOT.replace(/\/$/, '')})`,
    );
    expect(deployed.stderr).toContain(`package.json now depends on file:vendor/${TARBALL}`);
    expect(existsSync(project.path('vendor', TARBALL))).toBe(true);
    const pkg = JSON.parse(project.read('package.json')) as {
      dependencies: Record<string, string>;
    };
    expect(pkg.dependencies[TOOLKIT.name]).toBe(`file:vendor/${TARBALL}`);
    // Nothing the build reads names the checkout any more.
    expect(project.read('package-lock.json')).toContain(`vendor/${TARBALL}`);
    expect(project.read('package-lock.json')).not.toContain(REPO_ROOT.replace(/\/$/, ''));
    expect(project.read('Procfile')).toMatch(/^web: /);
  });

  it('a second deploy keeps the packed copy as it is', async () => {
    const again = await runCli(['deploy', 'githost', '-n', 'deploy-build'], {
      cwd: project.dir,
      env: userEnv({ PATH: `${bin}:${minimalPath()}` }),
    });
    expect(again.code).toBe(0);
    expect(again.stderr).not.toContain('is a local folder');
    expect(again.stdout).toContain(`file:vendor/${TARBALL}`);
  }, 60_000);

  it("builds in a fresh folder with the platform's commands and answers GET /health", async () => {
    // What git push sends: the committed files, without node_modules, far from any checkout.
    copy = mkdtempSync(join(tmpdir(), 'toolkit-deployed-'));
    cpSync(project.dir, copy, {
      recursive: true,
      filter: (source) => !/\/(node_modules|\.git)(\/|$)/.test(source.slice(project.dir.length)),
    });
    expect(existsSync(join(copy, 'node_modules'))).toBe(false);
    // The Node.js buildpack's build: an install from package.json and its lock. (`npm install`
    // rather than `npm ci`: this machine installs offline, and npm leaves the optional platform
    // packages of @swc/core out of a lock written offline, which `npm ci` then calls out of sync,
    // with or without vendoring.)
    const build = await runProgram(
      'npm',
      ['install', '--prefer-offline', '--no-audit', '--no-fund'],
      { cwd: copy, timeoutMs: 240_000 },
    );
    expect({ code: build.code, output: build.output }).toEqual({
      code: 0,
      output: expect.any(String),
    });
    expect(existsSync(join(copy, 'node_modules', TOOLKIT.name, 'dist'))).toBe(true);

    // The platform's start: the Procfile's web command, on its $PORT.
    const web = /^web: (.+)$/m.exec(readFileSync(join(copy, 'Procfile'), 'utf8'))?.[1];
    expect(web).toBeDefined();
    const port = await freePort();
    let output = '';
    // Its own process group, so the cleanup stops the shell and the app it started together.
    server = spawn('sh', ['-c', web!], {
      cwd: copy,
      env: userEnv({ PORT: String(port) }),
      detached: true,
    });
    server.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    server.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const healthy = await eventually(async () => {
      try {
        const res = await fetch(`http://127.0.0.1:${port}/health`);
        return res.status === 200;
      } catch {
        return false;
      }
    }, 60_000);
    expect({ healthy, output }).toEqual({ healthy: true, output: expect.any(String) });
    const health = await fetch(`http://127.0.0.1:${port}/health`);
    expect(await health.json()).toEqual({ status: 'healthy', version: '0.1.0' });
  }, 300_000);
});
