import { afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse as parseToml } from 'smol-toml';
import {
  assertCliBuilt,
  CLI_BIN,
  mapLimit,
  runCli,
  type CliResult,
} from './support/cli-process.js';
import { installFakeClients, minimalPath, recordedCalls } from './support/fake-clients.js';
import { createTempProject, TINY_APP, type TempProject } from './support/temp-project.js';

const PACKAGE_JSON = JSON.stringify({
  name: 'deploy-demo',
  type: 'module',
  scripts: { start: 'toolkit start' },
});
const DOTENV = 'OPENAI_API_KEY=<API_KEY>\nDEBUG=false\n';

/** The parts of vmhost.toml the tests read. */
interface VmhostShape {
  app: string;
  primary_region?: string;
  build: unknown;
  env: unknown;
  services: Array<{ internal_port: number; protocol: string; http_checks: unknown[] }>;
}

interface DeployRun {
  project: TempProject;
  log: string;
  result: CliResult;
}

describe('toolkit deploy', () => {
  const projects: TempProject[] = [];

  beforeAll(() => assertCliBuilt());
  afterEach(() => projects.splice(0).forEach((p) => p.cleanup()));

  function newProject(files: Record<string, string> = {}): TempProject {
    const project = createTempProject({
      'app.ts': TINY_APP,
      'package.json': PACKAGE_JSON,
      '.env': DOTENV,
      ...files,
    });
    projects.push(project);
    return project;
  }

  /** Runs `toolkit deploy <args>` with fake clients first on PATH (all three unless `clients` says). */
  async function deploy(
    args: string[],
    options: {
      project?: TempProject;
      clients?: string[];
      fail?: boolean;
      output?: string;
      path?: string;
    } = {},
  ): Promise<DeployRun> {
    const project = options.project ?? newProject();
    const bin = installFakeClients(project, options.clients ?? ['flyctl', 'heroku', 'vercel']);
    const log = project.path('calls.log');
    const result = await runCli(['deploy', ...args], {
      cwd: project.dir,
      env: {
        ...process.env,
        PATH: `${bin}:${options.path ?? minimalPath()}`,
        FAKE_CLIENT_LOG: log,
        FAKE_CLIENT_FAIL: options.fail ? '1' : '0',
        FAKE_CLIENT_OUTPUT: options.output ?? '',
      },
    });
    return { project, log, result };
  }

  describe('vmhost (alias fly)', () => {
    it('generates vmhost.toml, runs flyctl deploy with it, prints the URL and the secrets command', async () => {
      const { project, log, result } = await deploy(
        ['fly', '--app-name', 'my-bot', '--region', 'ams'],
        {
          output: 'Visit your newly deployed app at https://my-bot.fly.dev/',
        },
      );
      expect(result.code).toBe(0);
      const config = parseToml(
        readFileSync(project.path('vmhost.toml'), 'utf8'),
      ) as unknown as VmhostShape;
      expect(config.app).toBe('my-bot');
      expect(config.primary_region).toBe('ams');
      expect(config.build).toEqual({ builder: 'paketobuildpacks/builder:base' });
      expect(config.env).toEqual({ PORT: '8080' });
      expect(config.services).toHaveLength(1);
      expect(config.services[0]).toMatchObject({ internal_port: 8080, protocol: 'tcp' });
      expect(config.services[0].http_checks).toEqual([
        expect.objectContaining({ path: '/health/ready', method: 'get' }),
      ]);
      expect(recordedCalls(log)).toEqual(['flyctl deploy --config vmhost.toml --app my-bot']);
      expect(result.stdout).toContain('Created vmhost.toml');
      expect(result.stdout).toContain('Deployed my-bot: https://my-bot.fly.dev/');
      expect(result.stdout).toContain('flyctl secrets set OPENAI_API_KEY=<value> --app my-bot');
    });

    it('writes primary_region only with --region, never overwrites vmhost.toml, and accepts `fly`', async () => {
      const fresh = await deploy(['vmhost', '-n', 'plain-app'], { clients: ['fly'] });
      expect(fresh.result.code).toBe(0);
      const config = parseToml(readFileSync(fresh.project.path('vmhost.toml'), 'utf8'));
      expect(config).not.toHaveProperty('primary_region');
      expect(recordedCalls(fresh.log)).toEqual(['fly deploy --config vmhost.toml --app plain-app']);
      expect(fresh.result.stdout).toContain('Deployed plain-app: https://plain-app.fly.dev');

      const mine = 'app = "hand-written"\n';
      const kept = await deploy(['vmhost', '-n', 'other-app', '-r', 'fra'], {
        project: newProject({ 'vmhost.toml': mine }),
      });
      expect(kept.result.code).toBe(0);
      expect(readFileSync(kept.project.path('vmhost.toml'), 'utf8')).toBe(mine);
      expect(kept.result.stdout).toContain('Kept the existing vmhost.toml');
    });

    it('asks for the app name on a terminal', async () => {
      const project = newProject();
      const bin = installFakeClients(project, ['flyctl']);
      const log = project.path('calls.log');
      const command = `"${process.execPath}" "${CLI_BIN}" deploy fly`;
      // `script` gives the CLI a pseudo-terminal, so stdin is a TTY as for a person typing.
      const output = execFileSync('script', ['-qec', command, '/dev/null'], {
        cwd: project.dir,
        input: 'typed-name\n',
        env: {
          ...process.env,
          PATH: `${bin}:${minimalPath()}`,
          FAKE_CLIENT_LOG: log,
          FAKE_CLIENT_OUTPUT: '',
          NO_COLOR: '1',
        },
        encoding: 'utf8',
        timeout: 30_000,
      });
      expect(output).toContain('App name on vmhost [deploy-demo]:');
      expect(recordedCalls(log)).toEqual(['flyctl deploy --config vmhost.toml --app typed-name']);
    });
  });

  it.each([
    ['vmhost', 'flyctl', 'curl -L https://fly.io/install.sh | sh'],
    ['githost', 'heroku', 'npm install --global heroku'],
    ['serverless', 'vercel', 'npm install --global vercel'],
  ])('%s exits 1 with an install hint when %s is missing', async (platform, client, hint) => {
    const { result, project } = await deploy([platform, '-n', 'my-bot'], { clients: [] });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`The ${client} command-line client was not found on PATH`);
    expect(result.stderr).toContain(hint);
    expect(existsSync(project.path('vmhost.toml'))).toBe(false);
  });

  it('exits 1 when the deployment fails, and asks for --app-name without a terminal', async () => {
    const runs = await mapLimit(
      [
        () => deploy(['vmhost', '-n', 'my-bot'], { fail: true }),
        () => deploy(['serverless'], { fail: true }),
        () => deploy(['githost', '-n', 'my-bot'], { fail: true, project: gitProject() }),
        () => deploy(['vmhost']),
      ],
      2,
      (run) => run(),
    );
    const [fly, vercel, heroku, nameless] = runs.map((run) => run.result);
    expect(fly.code).toBe(1);
    expect(fly.stderr).toContain('The deployment failed: flyctl exited with 1');
    expect(vercel.code).toBe(1);
    expect(vercel.stderr).toContain('The deployment failed: vercel exited with 1');
    expect(heroku.code).toBe(1);
    expect(heroku.stderr).toContain('Creating the app failed: heroku exited with 1');
    expect(nameless.code).toBe(1);
    expect(nameless.stderr).toContain('An app name is needed to deploy to vmhost');
    expect(nameless.stderr).toContain('--app-name NAME');
    expect(recordedCalls(runs[3].log)).toEqual([]);
  }, 60_000);

  function gitProject(files: Record<string, string> = {}): TempProject {
    const project = newProject(files);
    execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: project.dir });
    return project;
  }

  describe('githost (alias heroku)', () => {
    it('exits 1 outside a git repository', async () => {
      const { result, log } = await deploy(['heroku', '-n', 'my-bot']);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain('not a git repository');
      expect(result.stderr).toContain('git init');
      expect(recordedCalls(log)).toEqual([]);
    });

    it('writes a Procfile, creates the app, sets the Node.js buildpack and prints git push instructions', async () => {
      const { project, log, result } = await deploy(
        ['heroku', '--app-name', 'my-bot', '--region', 'eu'],
        {
          project: gitProject(),
          output: 'https://my-bot-1a2b.herokuapp.com/ | https://git.heroku.com/my-bot.git',
        },
      );
      expect(result.code).toBe(0);
      expect(readFileSync(project.path('Procfile'), 'utf8')).toMatch(/^web: .+\n$/);
      expect(recordedCalls(log)).toEqual([
        'heroku create my-bot --region eu',
        'heroku buildpacks:set heroku/nodejs --app my-bot',
      ]);
      expect(result.stdout).toContain('Created my-bot: https://my-bot-1a2b.herokuapp.com/');
      expect(result.stdout).toContain('git remote add heroku https://git.heroku.com/my-bot.git');
      expect(result.stdout).toContain('git push heroku main');
      expect(result.stdout).toContain('heroku config:set OPENAI_API_KEY=<value> --app my-bot');
    });
  });

  describe('serverless (alias vercel)', () => {
    it('generates serverless.json and runs the production deploy with it', async () => {
      const { project, log, result } = await deploy(['vercel'], {
        output: 'https://deploy-demo-x1y2.vercel.app',
      });
      expect(result.code).toBe(0);
      expect(JSON.parse(readFileSync(project.path('serverless.json'), 'utf8'))).toEqual({
        builds: [{ src: 'app.ts', use: '@vercel/node' }],
        routes: [{ src: '/(.*)', dest: 'app.ts' }],
      });
      expect(recordedCalls(log)).toEqual([
        'vercel deploy --prod --yes --local-config serverless.json',
      ]);
      expect(result.stdout).toContain('Deployed: https://deploy-demo-x1y2.vercel.app');
      expect(result.stdout).toContain('vercel env add OPENAI_API_KEY production');
      expect(result.stderr).not.toContain('no default export');
    });

    it('links the named project, keeps an existing serverless.json and warns about a missing default export', async () => {
      const mine = '{"builds":[]}\n';
      const project = newProject({
        'serverless.json': mine,
        'app.ts': TINY_APP.replace('export default app.handler;\n', ''),
      });
      const { log, result } = await deploy(['serverless', '-n', 'named-app'], { project });
      expect(result.code).toBe(0);
      expect(readFileSync(project.path('serverless.json'), 'utf8')).toBe(mine);
      expect(recordedCalls(log)).toEqual([
        'vercel link --yes --project named-app',
        'vercel deploy --prod --yes --local-config serverless.json',
      ]);
      expect(result.stderr).toContain('add "export default app.handler;" to app.ts');
    });
  });

  describe('--check', () => {
    const TOOLKIT_PROJECT = JSON.stringify({
      name: 'deploy-demo',
      type: 'module',
      scripts: { start: 'toolkit start' },
      dependencies: { toolkit: '^0.1.0' },
    });
    /** The check lines (everything but the verdict line), as [mark, name] pairs. */
    const marks = (stdout: string): string[][] =>
      stdout
        .trim()
        .split('\n')
        .slice(0, -1)
        .map((line) => {
          const [mark, ...rest] = line.split(/ +/);
          const name = rest[0] === 'app' ? 'app name' : rest[0];
          return [mark, name];
        });

    it('runs the deploy checks without deploying or writing anything (vmhost)', async () => {
      const project = newProject({ 'package.json': TOOLKIT_PROJECT });
      const { log, result } = await deploy(['fly', '--check', '-n', 'my-bot'], {
        project,
        clients: ['flyctl'],
        output: 'flyctl v0.3.99 linux/amd64',
      });
      expect(result.code).toBe(0);
      expect(marks(result.stdout)).toEqual([
        ['ok', 'client'],
        ['ok', 'project'],
        ['ok', 'app name'],
        ['ok', 'file'],
        ['ok', 'start'],
        ['ok', 'toolkit'],
        ['ok', 'config'],
      ]);
      expect(result.stdout).toMatch(
        /^ok +client +flyctl v0\.3\.99 linux\/amd64 at \S+\/fake-bin\/flyctl \(toolkit deploy vmhost\)$/m,
      );
      expect(result.stdout).toMatch(/^ok +file +would create vmhost\.toml$/m);
      expect(result.stdout).toMatch(/All checks passed\.\n$/);
      // Only `flyctl --version` ran; nothing was generated.
      expect(recordedCalls(log)).toEqual(['flyctl --version']);
      expect(existsSync(project.path('vmhost.toml'))).toBe(false);
      expect(readFileSync(project.path('package.json'), 'utf8')).toBe(TOOLKIT_PROJECT);
    });

    it('fails (exit 1) naming each problem and its fix: no client, no git, no app name, bad config', async () => {
      const project = newProject({
        'package.json': TOOLKIT_PROJECT,
        'toolkit.yaml': 'memory:\n  backend: [x\n',
      });
      const { result } = await deploy(['heroku', '--check'], { project, clients: [] });
      expect(result.code).toBe(1);
      expect(marks(result.stdout)).toEqual([
        ['FAIL', 'client'],
        ['ok', 'project'],
        ['FAIL', 'git'],
        ['FAIL', 'app name'],
        ['ok', 'file'],
        ['ok', 'toolkit'],
        ['FAIL', 'config'],
      ]);
      expect(result.stdout).toMatch(
        /^FAIL client +heroku not found on PATH .* - fix: install it: npm install --global heroku/m,
      );
      expect(result.stdout).toMatch(/^FAIL git +.*not a git repository - fix: git init/m);
      expect(result.stdout).toMatch(
        /^FAIL app name +not given, .*\(suggesting deploy-demo from package\.json\) - fix: pass --app-name deploy-demo/m,
      );
      expect(result.stdout).toMatch(/^FAIL config +.*is not valid YAML.*toolkit\.yaml/m);
      expect(result.stdout).toMatch(/4 checks failed\.\n$/);
      expect(result.stdout + result.stderr).not.toMatch(/\n\s+at /);
      expect(existsSync(project.path('Procfile'))).toBe(false);
    });

    it('fails outside a toolkit project, and warns about what deploy would change', async () => {
      const plain = await deploy(['vercel', '--check'], { clients: ['vercel'] });
      expect(plain.result.code).toBe(1);
      expect(plain.result.stdout).toMatch(
        /^FAIL project +package\.json does not list toolkit in dependencies .* - fix: /m,
      );
      const local = JSON.stringify({ name: 'x-bot', dependencies: { toolkit: 'file:../nowhere' } });
      const mine = '{"builds":[]}\n';
      const project = newProject({
        'package.json': local,
        'serverless.json': mine,
        'app.ts': TINY_APP.replace('export default app.handler;\n', ''),
      });
      const { result } = await deploy(['serverless', '--check', '--json'], {
        project,
        clients: ['vercel'],
        output: '41.2.0',
      });
      expect(result.code).toBe(1);
      const report = JSON.parse(result.stdout) as {
        ok: boolean;
        checks: Array<{ name: string; status: string; detail: string; fix?: string }>;
      };
      expect(report.ok).toBe(false);
      expect(report.checks.map((check) => [check.name, check.status])).toEqual([
        ['client', 'ok'],
        ['project', 'ok'],
        ['file', 'ok'],
        ['entry', 'warn'],
        ['toolkit', 'fail'],
        ['config', 'ok'],
      ]);
      expect(report.checks[2].detail).toBe(
        'serverless.json exists and is kept (toolkit never overwrites it)',
      );
      expect(report.checks[3].fix).toBe('add "export default app.handler;" to app.ts');
      expect(report.checks[4].detail).toContain('file:../nowhere is a local folder without');
      expect(readFileSync(project.path('serverless.json'), 'utf8')).toBe(mine);
      expect(readFileSync(project.path('package.json'), 'utf8')).toBe(local);
      expect(existsSync(project.path('vendor'))).toBe(false);
    });

    it('names a malformed package.json in one line, with --check and without', async () => {
      const project = newProject({ 'package.json': '{oops' });
      const checked = await deploy(['aws', '--check'], { project, clients: [] });
      expect(checked.result.code).toBe(1);
      expect(checked.result.stdout).toMatch(
        /^FAIL project +package\.json is not a valid JSON object - fix: /m,
      );
      // A platform that ships the project reads package.json before anything else.
      const { result } = await deploy(['fly', '-n', 'my-bot'], { project });
      expect(result.code).toBe(1);
      expect(result.stderr).toContain('package.json is not a valid JSON object');
      expect(result.stderr).not.toContain('DEBUG=true');
    });

    it('cloudguide needs no client', async () => {
      const project = newProject({ 'package.json': TOOLKIT_PROJECT });
      const { result } = await deploy(['aws', '--check'], { project, clients: [] });
      expect(result.code).toBe(0);
      expect(result.stdout).toMatch(/^ok +client +cloudguide needs no client/m);
      expect(result.stdout).not.toContain('Serverless functions behind an API gateway');
    });
  });

  it('cloudguide (alias aws) prints the three guides without any client', async () => {
    const { result, log } = await deploy(['aws', '-n', 'my-bot', '-r', 'eu-west-1'], {
      clients: [],
    });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Serverless functions behind an API gateway');
    expect(result.stdout).toContain('Container service (Amazon ECS on Fargate)');
    expect(result.stdout).toContain('Managed application platform (AWS Elastic Beanstalk');
    expect(result.stdout).toContain('export default app.handler;');
    expect(result.stdout).toContain('eb setenv OPENAI_API_KEY=<value>');
    expect(result.stdout).toContain('eu-west-1');
    // TINY_APP exports its handler: the guide says so rather than asking for it.
    expect(result.stdout).toContain('app.ts exports the request handler already');
    expect(recordedCalls(log)).toEqual([]);
  });

  it('cloudguide writes nothing: no vendored toolkit, package.json as it was', async () => {
    // A toolkit dependency on a local folder, as `toolkit new` writes from a checkout: the
    // platforms that ship the project vendor it; a printed guide must leave it alone.
    const checkout = fileURLToPath(new URL('../../..', import.meta.url));
    const pkg = JSON.stringify({
      ...(JSON.parse(PACKAGE_JSON) as object),
      dependencies: { toolkit: `file:${checkout}` },
    });
    const project = newProject({ 'package.json': pkg, 'app.ts': 'export const app = {};\n' });
    const { result } = await deploy(['cloudguide'], { project, clients: [] });
    expect(result.code).toBe(0);
    expect(readFileSync(project.path('package.json'), 'utf8')).toBe(pkg);
    expect(existsSync(project.path('vendor'))).toBe(false);
    expect(existsSync(project.path('package-lock.json'))).toBe(false);
    expect(result.stdout).toContain('in app.ts add "export default app.handler;"');
  });
});
