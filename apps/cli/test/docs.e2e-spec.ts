import { afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { assertCliBuilt, freePort, runCli, startCli } from './support/cli-process.js';
import { createTempProject, type TempProject } from './support/temp-project.js';

function htmlFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((file) =>
    file.endsWith('.html'),
  );
}

describe('toolkit docs', () => {
  const projects: TempProject[] = [];
  const project = (files: Record<string, string>, withVitepress: boolean): TempProject => {
    const created = createTempProject(
      { 'package.json': '{"name":"docs-demo"}', ...files },
      withVitepress ? ['vitepress'] : [],
    );
    projects.push(created);
    return created;
  };

  beforeAll(() => assertCliBuilt());
  afterEach(() => projects.splice(0).forEach((p) => p.cleanup()));

  it('--build creates the docs structure and writes site/index.html, never publishing docs/documents/', async () => {
    const docs = project({ 'docs/documents/upload-1.md': '# Confidential upload\n' }, true);
    const result = await runCli(['docs', '--build'], { cwd: docs.dir, timeoutMs: 90_000 });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Created docs/index.md');
    expect(result.stdout).toContain('Created docs/.vitepress/config.mts');
    expect(result.stdout).toContain(`Built the docs site in site/ (${docs.path('site')})`);
    expect(readFileSync(docs.path('site/index.html'), 'utf8')).toContain('docs-demo');
    const config = readFileSync(docs.path('docs/.vitepress/config.mts'), 'utf8');
    expect(config).toContain("srcExclude: ['documents/**']");
    expect(htmlFiles(docs.path('site')).filter((file) => file.includes('upload'))).toEqual([]);
    expect(JSON.stringify(readdirSync(docs.path('site'), { recursive: true }))).not.toContain(
      'documents',
    );
  }, 120_000);

  it('keeps an existing docs/index.md and exits 1 when the build fails', async () => {
    const docs = project(
      {
        'docs/index.md': '# My own page\n',
        'docs/.vitepress/config.mts':
          "export default { title: 'broken', outDir: '../site' ,,, };\n",
      },
      true,
    );
    const result = await runCli(['docs', '--build'], { cwd: docs.dir, timeoutMs: 90_000 });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('The docs build failed');
    expect(readFileSync(docs.path('docs/index.md'), 'utf8')).toBe('# My own page\n');
    expect(result.stdout).not.toContain('Created docs/index.md');
    expect(existsSync(docs.path('site/index.html'))).toBe(false);
  }, 120_000);

  it('exits 1 with the install command when VitePress cannot be resolved from the project', async () => {
    const docs = project({}, false);
    for (const args of [['docs'], ['docs', '--build']]) {
      const result = await runCli(args, { cwd: docs.dir });
      expect(result.code).toBe(1);
      expect(result.stderr).toContain('The docs generator VitePress was not found in this project');
      expect(result.stderr).toContain('npm install --save-dev vitepress');
    }
    expect(existsSync(join(docs.dir, 'docs'))).toBe(false);
  }, 60_000);

  it('--serve (default) serves http://localhost:<port> with live content, and Ctrl+C exits 0', async () => {
    const docs = project({}, true);
    const port = await freePort();
    const cli = startCli(['docs', '--port', String(port)], { cwd: docs.dir, timeoutMs: 90_000 });
    try {
      await cli.waitFor(new RegExp(`Serving the docs at http://localhost:${port}`));
      await cli.waitFor(new RegExp(`Local: +http://localhost:${port}/`), 60_000);
      const page = await fetch(`http://localhost:${port}/`);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('<div id="app">');
      const before = await (await fetch(`http://localhost:${port}/index.md`)).text();
      expect(before).toContain('# docs-demo');

      docs.write('docs/index.md', '# Edited while serving\n');
      const after = await (await fetch(`http://localhost:${port}/index.md`)).text();
      expect(after).toContain('# Edited while serving');
    } finally {
      cli.child.kill('SIGINT');
    }
    expect(await cli.exited).toEqual({ code: 0, signal: null });
    await expect(fetch(`http://localhost:${port}/`)).rejects.toThrow();
  }, 120_000);
});
