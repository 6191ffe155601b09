import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parse as parseToml } from 'smol-toml';
import { assertCliBuilt, eventually, REPO_ROOT, runCli } from './support/cli-process.js';
import { installFakeClients, minimalPath } from './support/fake-clients.js';
import { createTempProject, TINY_APP, type TempProject } from './support/temp-project.js';

/** The port every generated deployment file starts the app on. */
const PORT = 8080;
const REGISTER_URL = pathToFileURL(join(REPO_ROOT, 'dist/apps/cli/src/runtime/register.js')).href;

function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '0.0.0.0', () => server.close(() => resolve(true)));
  });
}

async function health(): Promise<unknown> {
  try {
    const response = await fetch(`http://127.0.0.1:${PORT}/health`);
    return response.status === 200 ? await response.json() : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Runs a start command in its own process group (as a platform would run it) and returns once
 * `GET /health` answers, with a function that stops the whole group and waits for it.
 */
async function startAndProbe(
  command: string,
  args: string[],
  cwd: string,
  env: NodeJS.ProcessEnv,
): Promise<unknown> {
  expect(await eventually(() => portIsFree(PORT), 20_000)).toBe(true);
  const child: ChildProcess = spawn(command, args, {
    cwd,
    env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise((resolve) => child.on('exit', resolve));
  try {
    let answer: unknown;
    const up = await eventually(async () => (answer = await health()) !== undefined, 40_000);
    if (!up)
      throw new Error(`"${command} ${args.join(' ')}" never answered GET /health:\n${output}`);
    return answer;
  } finally {
    process.kill(-child.pid!, 'SIGTERM');
    await exited;
    expect(await eventually(() => portIsFree(PORT), 10_000)).toBe(true);
  }
}

describe('generated deployment files start the app on port 8080 for real', () => {
  let project: TempProject;
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    assertCliBuilt();
    project = createTempProject(
      {
        'app.ts': TINY_APP,
        'package.json': JSON.stringify({
          name: 'start-demo',
          type: 'module',
          scripts: { start: 'toolkit start' },
        }),
      },
      ['toolkit'],
    );
    const bin = installFakeClients(project, ['flyctl', 'heroku', 'vercel']);
    env = {
      ...process.env,
      PATH: `${bin}:${minimalPath()}`,
      FAKE_CLIENT_LOG: project.path('calls.log'),
      FAKE_CLIENT_OUTPUT: '',
    };
    await new Promise<void>((resolve, reject) =>
      spawn('git', ['init', '-q'], { cwd: project.dir }).on('exit', (code) =>
        code === 0 ? resolve() : reject(new Error('git init')),
      ),
    );
    for (const platform of ['vmhost', 'githost', 'serverless']) {
      const result = await runCli(['deploy', platform, '--app-name', 'start-demo'], {
        cwd: project.dir,
        env,
      });
      expect(result.code).toBe(0);
    }
  }, 60_000);
  afterAll(() => project.cleanup());

  /** What a platform gives the app: its own PORT, no provider keys. */
  function platformEnv(port: string): NodeJS.ProcessEnv {
    const base: NodeJS.ProcessEnv = {
      ...process.env,
      PATH: `${project.path('node_modules/.bin')}:${minimalPath()}`,
      PORT: port,
    };
    for (const name of Object.keys(base))
      if (/_API_KEY$|^TOOLKIT_|^HOST$/.test(name)) delete base[name];
    return base;
  }

  it('Procfile: the web: line serves GET /health with PORT=8080', async () => {
    const web = /^web: (.+)$/m.exec(readFileSync(project.path('Procfile'), 'utf8'))?.[1];
    expect(web).toBeDefined();
    expect(await startAndProbe('sh', ['-c', web!], project.dir, platformEnv(String(PORT)))).toEqual(
      { status: 'healthy' },
    );
  }, 60_000);

  it('vmhost.toml: the buildpack start (npm start) serves GET /health on the [env] PORT', async () => {
    const config = parseToml(readFileSync(project.path('vmhost.toml'), 'utf8')) as {
      env: { PORT: string };
    };
    expect(config.env.PORT).toBe(String(PORT));
    expect(
      await startAndProbe('npm', ['start', '--silent'], project.dir, platformEnv(config.env.PORT)),
    ).toEqual({
      status: 'healthy',
    });
  }, 60_000);

  it("serverless.json: the entry's default export is a Node (req, res) handler serving GET /health", async () => {
    const config = JSON.parse(readFileSync(project.path('serverless.json'), 'utf8')) as {
      builds: Array<{ src: string }>;
    };
    const entry = project.path(config.builds[0].src);
    // What the serverless runtime does: import the entry and hand each request to its default export.
    const host = `import { createServer } from 'node:http';
const { default: handler } = await import(${JSON.stringify(pathToFileURL(entry).href)});
createServer(handler).listen(Number(process.env.PORT));`;
    expect(
      await startAndProbe(
        process.execPath,
        ['--import', REGISTER_URL, '--input-type=module', '-e', host],
        project.dir,
        platformEnv(String(PORT)),
      ),
    ).toEqual({ status: 'healthy' });
  }, 60_000);
});
