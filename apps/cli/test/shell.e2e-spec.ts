import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { assertCliBuilt, mapLimit, REPO_ROOT, runCli } from './support/cli-process.js';
import { writeModuleTracer } from './support/module-trace.js';
import { createTempProject, type TempProject } from './support/temp-project.js';

const version = (
  JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string }
).version;

describe('toolkit shell: version, help and exit codes', () => {
  let project: TempProject;

  beforeAll(() => {
    assertCliBuilt();
    project = createTempProject({});
  });
  afterAll(() => project.cleanup());

  const cli = (...args: string[]) => runCli(args, { cwd: project.dir });

  it('prints the version with --version and -V, exit 0', async () => {
    for (const flag of ['--version', '-V']) {
      const result = await cli(flag);
      expect(result).toMatchObject({ code: 0, stdout: `${version}\n`, stderr: '' });
    }
  });

  it('answers --version without loading Nest, nest-commander or any SDK', async () => {
    const log = project.path('modules.log');
    const tracer = writeModuleTracer(project.dir, log);
    const result = await runCli(['--version'], {
      cwd: project.dir,
      env: { ...process.env, NODE_OPTIONS: `--import=${tracer}` },
    });
    expect(result.code).toBe(0);
    const loaded = readFileSync(log, 'utf8');
    expect(loaded).toContain('apps/cli/src/main.js');
    for (const heavy of [
      '@nestjs',
      'nest-commander',
      'openai',
      '@anthropic-ai',
      'handlebars',
      'commander',
    ]) {
      expect(loaded).not.toContain(heavy);
    }
  });

  it('prints the same root help on the fast path (--help) and through Nest (help)', async () => {
    const fast = await cli('--help');
    const full = await cli('help');
    expect(fast.code).toBe(0);
    expect(full.code).toBe(0);
    expect(fast.stdout).toContain('Usage: toolkit [options] [command]');
    for (const command of ['dev', 'start', 'test', 'docs', 'deploy'])
      expect(fast.stdout).toMatch(new RegExp(`\\n  ${command} `));
    expect(full.stdout).toBe(fast.stdout);
  });

  it('shows help on stderr and exits 2 when no command is given', async () => {
    const result = await cli();
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('Usage: toolkit');
  });

  it('prints per-command help with exit 0; dev keeps -h for the host', async () => {
    const commands = ['dev', 'start', 'test', 'docs', 'deploy'];
    const results = await mapLimit(commands, 3, (command) => cli(command, '--help'));
    results.forEach((result, i) => {
      expect({ command: commands[i], code: result.code }).toEqual({
        command: commands[i],
        code: 0,
      });
      expect(result.stdout).toContain(`Usage: toolkit ${commands[i]} [options]`);
    });
    const [dev, , , , deploy] = results;
    expect(dev.stdout).toMatch(/-h, --host <host>/);
    expect(dev.stdout).toMatch(/\n {2}--help +display help/);
    expect(dev.stdout).toMatch(/--reload[\s\S]*--no-reload/);
    expect(deploy.stdout).toMatch(
      /vmhost \(alias fly\), githost \(heroku\), serverless\s+\(vercel\) or cloudguide \(aws\)/,
    );
  });

  const invalidUsage: Array<[string, string[], RegExp]> = [
    ['unknown command', ['launch'], /unknown command 'launch'/],
    ['unknown option (dev)', ['dev', '--bogus'], /unknown option '--bogus'/],
    ['unknown option (start)', ['start', '--bogus'], /unknown option '--bogus'/],
    ['unknown option (test)', ['test', '--watch'], /unknown option '--watch'/],
    ['unknown option (docs)', ['docs', '--open'], /unknown option '--open'/],
    ['unknown option (deploy)', ['deploy', 'fly', '--force'], /unknown option '--force'/],
    ['missing argument', ['deploy'], /missing required argument 'platform'/],
    [
      'invalid choice',
      ['deploy', 'nowhere'],
      /unknown platform "nowhere"; choose one of vmhost \(fly\)/,
    ],
    [
      'non-integer port (dev)',
      ['dev', '--port', 'abc'],
      /argument 'abc' is invalid. The port must be an integer/,
    ],
    [
      'port out of range (dev)',
      ['dev', '-p', '70000'],
      /The port must be an integer from 1 to 65535/,
    ],
    ['non-integer port (docs)', ['docs', '-p', '80.5'], /The port must be an integer/],
    ['non-integer port (start)', ['start', '--port', 'x'], /The port must be an integer/],
    ['malformed --app', ['dev', '--app', 'app.ts'], /Expected <module>:<export>/],
    [
      'invalid --app-name',
      ['deploy', 'vmhost', '--app-name', 'Not Valid'],
      /App names use 3 to 63 lower-case/,
    ],
    ['surplus argument', ['test', 'tests/'], /too many arguments for 'test'/],
    ['option missing its value', ['dev', '--host'], /option '-h, --host <host>' argument missing/],
    ['--serve with --build', ['docs', '--serve', '--build'], /choose either --serve or --build/],
  ];

  it('exits 2 on every kind of invalid usage, with a pointer to --help', async () => {
    const results = await mapLimit(invalidUsage, 4, ([, args]) => cli(...args));
    invalidUsage.forEach(([name, , message], i) => {
      const { code, stderr } = results[i];
      expect({ name, code }).toEqual({ name, code: 2 });
      expect({ name, stderr }).toEqual({ name, stderr: expect.stringMatching(message) });
      expect(stderr).toContain('--help');
    });
  }, 90_000);
});
