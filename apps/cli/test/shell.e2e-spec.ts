import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { assertCliBuilt, mapLimit, REPO_ROOT, runCli } from './support/cli-process.js';
import { writeModuleTracer } from './support/module-trace.js';
import { createTempProject, type TempProject } from './support/temp-project.js';

const version = (
  JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string }
).version;

/** Runs node with `args` in the repository and collects its exit status and stdout. */
function runNode(args: string[]): Promise<{ code: number | null; stdout: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, {
      cwd: REPO_ROOT,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.on('close', (code) => resolve({ code, stdout }));
  });
}

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

  it('prints the same root and command help on the fast path as nest-commander builds', async () => {
    // `start` is not a nest-commander command (it runs without it); its help is the manifest's.
    const commands = ['new', 'dev', 'test', 'docs', 'deploy', 'doctor'];
    const fast = await mapLimit(['', ...commands], 3, (command) =>
      command ? cli(command, '--help') : cli('--help'),
    );
    // nest-commander's own program with every Nest command, built from the compiled CLI.
    const script = `
      import 'reflect-metadata';
      import { CommandFactory } from 'nest-commander';
      import { CliModule } from ${JSON.stringify(join(REPO_ROOT, 'dist/apps/cli/src/cli.module.js'))};
      import { ProgramSetupService } from ${JSON.stringify(join(REPO_ROOT, 'dist/apps/cli/src/shell/program-setup.service.js'))};
      const app = await CommandFactory.createWithoutRunning(await CliModule.forCommands(), { logger: false, version: ${JSON.stringify(version)} });
      const program = app.get(ProgramSetupService).program;
      const helps = [program.helpInformation(), ...${JSON.stringify(commands)}.map((name) => program.commands.find((c) => c.name() === name).helpInformation())];
      await app.close();
      process.stdout.write(JSON.stringify(helps));
    `;
    const nest = await runNode(['--input-type=module', '-e', script]);
    expect(nest.code).toBe(0);
    const nestHelps = JSON.parse(nest.stdout) as string[];
    const startLine = /\n {2}start \[options\] +Serve the app in production[^\n]*(\n {20,}[^\n]*)*/;
    expect(fast[0].stdout).toMatch(startLine);
    fast.forEach((result, i) => {
      expect(result.code).toBe(0);
      expect(i === 0 ? result.stdout.replace(startLine, '') : result.stdout).toBe(nestHelps[i]);
    });
    expect(fast[0].stdout).toContain('Usage: toolkit [options] [command]');
    for (const command of commands) expect(fast[0].stdout).toMatch(new RegExp(`\\n  ${command} `));
    expect((await cli('help', 'dev')).stdout).toBe(nestHelps[2]);
  }, 60_000);

  it('answers --help of every command and every usage error without loading Nest', async () => {
    const runs: string[][] = [
      ...['new', 'dev', 'start', 'test', 'docs', 'deploy'].map((command) => [command, '--help']),
      ['dev', '--port', 'abc'],
      ['deploy'],
      ['deploy', 'nowhere'],
      ['launch'],
      ['new', 'My App'],
    ];
    for (const [i, args] of runs.entries()) {
      const log = project.path(`modules-${i}.log`);
      const tracer = writeModuleTracer(project.dir, log);
      const result = await runCli(args, {
        cwd: project.dir,
        env: { ...process.env, NODE_OPTIONS: `--import=${tracer}` },
      });
      expect({ args, code: result.code }).toEqual({
        args,
        code: args[1] === '--help' ? 0 : args[0] === 'new' ? 1 : 2,
      });
      const loaded = readFileSync(log, 'utf8');
      expect(loaded).toContain('apps/cli/src/command-manifest.js');
      for (const heavy of ['@nestjs', 'nest-commander', 'openai', '@anthropic-ai', 'handlebars'])
        expect({ args, loaded: loaded.includes(heavy) }).toEqual({ args, loaded: false });
    }
  }, 60_000);

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
    expect(deploy.stdout).toMatch(/\n {2}--check +only check what the deployment needs/);
    expect(deploy.stdout).toMatch(/\n {2}--json +with --check: print the checks as JSON/);
  });

  const invalidUsage: Array<[string, string[], RegExp]> = [
    ['unknown command', ['launch'], /unknown command 'launch'/],
    ['unknown option (dev)', ['dev', '--bogus'], /unknown option '--bogus'/],
    ['unknown option (start)', ['start', '--bogus'], /unknown option '--bogus'/],
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
    ['surplus argument', ['docs', 'extra'], /too many arguments for 'docs'/],
    ['--json without --check', ['deploy', 'fly', '--json'], /--json only goes with --check/],
    [
      'unknown --platform (doctor)',
      ['doctor', '--platform', 'nowhere'],
      /Unknown platform "nowhere"; choose one of vmhost \(fly\)/,
    ],
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
