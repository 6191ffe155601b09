import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { assertCliBuilt, CLI_BIN, mapLimit, REPO_ROOT, runCli } from './support/cli-process.js';
import { createTempProject, type TempProject } from './support/temp-project.js';

interface PackageJson {
  name: string;
  scripts: Record<string, string>;
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
}

describe('toolkit new', () => {
  let work: TempProject;
  const cli = (...args: string[]) => runCli(args, { cwd: work.dir });
  const read = (...parts: string[]) => readFileSync(work.path(...parts), 'utf8');

  beforeAll(() => {
    assertCliBuilt();
    work = createTempProject({});
  });
  afterAll(() => work.cleanup());

  it('creates a chatbot project by default, lists its files and the next commands', async () => {
    const result = await cli('new', 'my-bot');
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(
      `Created my-bot from the chatbot template in ${work.path('my-bot')}`,
    );
    for (const file of [
      'app.ts',
      '.env',
      'package.json',
      'tsconfig.json',
      'README.md',
      '.gitignore',
    ]) {
      expect(result.stdout).toMatch(new RegExp(`^  ${file.replace('.', '\\.')}$`, 'm'));
      expect(existsSync(work.path('my-bot', file))).toBe(true);
    }
    expect(result.stdout).toMatch(
      /Next steps:\n {4}cd my-bot\n {4}npm install\n {4}npm run dev\n {4}npm test\n/,
    );

    expect(read('my-bot', 'app.ts')).toMatch(/export const app = new App\(\{\n {2}title: 'my-bot'/);
    expect(read('my-bot', '.env')).toMatch(/^OPENAI_API_KEY=<API_KEY>\nDEBUG=false$/m);
    expect(read('my-bot', '.gitignore').split('\n')).toEqual(
      expect.arrayContaining(['.env', 'node_modules', 'dist']),
    );
    expect(read('my-bot', '.npmrc')).toMatch(/^install-links=true$/m);
    const pkg = JSON.parse(read('my-bot', 'package.json')) as PackageJson;
    expect(pkg.name).toBe('my-bot');
    expect(pkg.scripts).toMatchObject({
      dev: 'toolkit dev',
      start: 'toolkit start',
      test: 'toolkit test',
    });
    // The toolkit's peers: the project installs the one copy it shares with the toolkit.
    const toolkitPackage = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as {
      devDependencies: Record<string, string>;
    };
    const own = (name: string): string => toolkitPackage.devDependencies[name];
    expect(pkg.dependencies).toEqual({
      toolkit: `file:${REPO_ROOT.replace(/\/$/, '')}`,
      openai: expect.any(String),
      '@nestjs/common': own('@nestjs/common'),
      '@nestjs/core': own('@nestjs/core'),
      '@nestjs/platform-express': own('@nestjs/platform-express'),
      rxjs: own('rxjs'),
      'reflect-metadata': own('reflect-metadata'),
    });
    expect(pkg.devDependencies).toHaveProperty('jest');
    expect(pkg.devDependencies['@nestjs/testing']).toBe(own('@nestjs/testing'));
    const tests = readdirSync(work.path('my-bot', 'tests'));
    expect(tests.length).toBeGreaterThan(0);
    expect(read('my-bot', 'tests', tests[0])).toContain("from 'toolkit/testing'");
    // Written through a staging folder that is gone afterwards.
    expect(readdirSync(work.dir).filter((name) => name.startsWith('.'))).toEqual([]);
  });

  it('creates each template into --directory (created when missing); rag gets docs/', async () => {
    const runs = await mapLimit(
      [
        ['new', 'docs-bot', '-t', 'rag', '-d', 'projects/ai'],
        ['new', 'agent-x', '--template', 'agent', '--directory', 'projects/ai'],
        ['new', 'api-one', '--template=api', '-d', work.path('abs')],
        ['new', 'api-two', '-t', 'api', '-d', work.path('abs')],
      ],
      2,
      (args) => cli(...args),
    );
    expect(runs.map((run) => run.code)).toEqual([0, 0, 0, 0]);
    expect(runs[0].stdout).toContain('cd projects/ai/docs-bot\n');
    expect(runs[2].stdout).toContain('cd abs/api-one\n');
    expect(existsSync(work.path('projects/ai/docs-bot/docs/documents'))).toBe(true);
    expect(read('projects/ai/agent-x', 'toolkit.yaml')).toContain('styles:');

    const keyOf = (name: string) =>
      /^API_KEYS=([0-9a-f]{64})$/m.exec(read('abs', name, '.env'))?.[1];
    expect(keyOf('api-one')).toBeDefined();
    expect(keyOf('api-two')).toBeDefined();
    expect(keyOf('api-one')).not.toBe(keyOf('api-two'));
    expect(read('abs/api-one', '.env')).toMatch(/^CORS_ORIGINS=\*\nRATE_LIMIT_PER_MINUTE=60$/m);
    const api = JSON.parse(read('abs/api-one', 'package.json')) as PackageJson;
    expect(api.dependencies).not.toHaveProperty('@nestjs/platform-fastify');
  });

  it('exits quietly when its reader closes the pipe (toolkit new x | head -1), still creating the project', async () => {
    const child = spawn(process.execPath, [CLI_BIN, 'new', 'piped-bot'], {
      cwd: work.dir,
      env: { ...process.env, NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    // Like `head -1`: read the first chunk, then close the pipe.
    child.stdout.once('data', () => child.stdout.destroy());
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    expect(existsSync(work.path('piped-bot/package.json'))).toBe(true);
  });

  const badNames: Array<[string, RegExp]> = [
    ['../toolkit-new-escape', /single folder name/],
    ['a/b', /single folder name/],
    ['a\\b', /single folder name/],
    ['My App', /URL-friendly characters/],
    ['', /length must be greater than zero/],
    ['.hidden', /cannot start with a period/],
    ['node_modules', /not a valid package name/],
  ];

  it('exits 1 with the reason for each invalid name, creating nothing', async () => {
    const before = readdirSync(work.dir).sort();
    const results = await mapLimit(badNames, 3, ([name]) => cli('new', name));
    badNames.forEach(([name, reason], i) => {
      expect({ name, code: results[i].code }).toEqual({ name, code: 1 });
      expect({ name, stderr: results[i].stderr }).toEqual({
        name,
        stderr: expect.stringMatching(
          new RegExp(
            `^Error: Invalid project name ${JSON.stringify(name).replace(/[\\.]/g, '\\$&')}: .*${reason.source}`,
          ),
        ),
      });
      expect(results[i].stdout).toBe('');
    });
    expect(readdirSync(work.dir).sort()).toEqual(before);
    expect(existsSync(join(work.dir, '..', 'toolkit-new-escape'))).toBe(false);
  }, 60_000);

  it('exits 1 with "Directory already exists" and leaves the folder alone', async () => {
    mkdirSync(work.path('taken'));
    writeFileSync(work.path('taken', 'notes.txt'), 'mine');
    const result = await cli('new', 'taken', '-t', 'api');
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^Error: Directory already exists: taken\n/);
    expect(readdirSync(work.path('taken'))).toEqual(['notes.txt']);
  });

  it('exits 2 for an unknown template and a missing name, pointing at --help', async () => {
    const [template, missing] = await mapLimit([['new', 'x1', '-t', 'nope'], ['new']], 2, (args) =>
      cli(...args),
    );
    expect(template.code).toBe(2);
    expect(template.stderr).toMatch(
      /option '-t, --template <template>' argument 'nope' is invalid\. Allowed choices are chatbot, rag, agent, api\./,
    );
    expect(template.stderr).toContain('--help');
    expect(existsSync(work.path('x1'))).toBe(false);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/missing required argument 'name'/);
  });

  it('--help lists the argument, every option, the choices and the defaults', async () => {
    const [help, root] = await mapLimit([['new', '--help'], ['--help']], 2, (args) => cli(...args));
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Usage: toolkit new [options] <name>');
    // Commander wraps long lines: compare with the whitespace collapsed.
    const text = help.stdout.replace(/\s+/g, ' ');
    expect(text).toContain('name project name: the folder to create and the npm package name');
    expect(text).toContain(
      '-t, --template <template> project template to start from (choices: "chatbot", "rag", "agent", "api", default: "chatbot")',
    );
    expect(text).toContain(
      '-d, --directory <dir> folder to create the project folder in (default: ".")',
    );
    expect(help.stdout).toMatch(/-h, --help +display help for command/);
    expect(root.stdout).toMatch(/\n {2}new \[options\] <name> +Create a project from a template/);
  });
});
