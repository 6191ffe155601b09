import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { TemplateUnavailableError } from './new.errors.js';
import { projectDependencies } from './project-dependencies.js';
import { PROJECT_TEMPLATES } from './project-templates.js';
import { TemplateRendererService, type GeneratedFile } from './template-renderer.service.js';
import { templateVariables, type TemplateVariables } from './template-variables.js';
import { readToolkitPackage } from './toolkit-package.js';

const REPO_ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const BINARY = Buffer.from(Array.from({ length: 256 }, (_, i) => i));

const variables: TemplateVariables = {
  name: 'demo-app',
  description: 'A "quoted" <demo> & more',
  keyVar: 'OPENAI_API_KEY',
  providerLabel: 'OpenAI',
  dependencies: { toolkit: 'file:/opt/toolkit' },
  devDependencies: { jest: '^30.0.0' },
  extraEnv: ['A=1', 'B=2'],
  toolkitName: 'toolkit',
  platform: 'express',
  fastify: false,
};

function byPath(files: readonly GeneratedFile[]): Map<string, GeneratedFile> {
  return new Map(files.map((file) => [file.path, file]));
}

describe('TemplateRendererService on a small template set', () => {
  const renderer = new TemplateRendererService();
  let root: string;
  const write = (file: string, content: string | Buffer, mode?: number): void => {
    mkdirSync(dirname(join(root, file)), { recursive: true });
    writeFileSync(join(root, file), content);
    if (mode !== undefined) chmodSync(join(root, file), mode);
  };

  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'toolkit-renderer-'));
    write('_shared/partials/greet.hbs', 'Hello from {{name}}\n');
    write('_shared/README.md.hbs', '# {{name}}\n{{> greet}}\n');
    write('_shared/env.hbs', '{{keyVar}}=<API_KEY>\n{{#each extraEnv}}\n{{this}}\n{{/each}}\n');
    write('_shared/gitignore', 'node_modules\n');
    write('_shared/logo.bin', BINARY);
    write(
      '_shared/package.json.hbs',
      '{ "name": "{{name}}", "description": {{json description}}, "dependencies": {\n' +
        '{{#each dependencies}}{{json @key}}: {{json this}}{{#unless @last}},{{/unless}}{{/each}} } }\n',
    );
    write('chatbot/README.md.hbs', '# {{name}} (chatbot)\n{{> greet}}\n');
    write('chatbot/bin/run.sh', '#!/bin/sh\n', 0o755);
    write('agent/app.ts.hbs', 'export const title = "{{missing}}";\n');
    write('api/package.json', '{ not json');
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('renders .hbs files with partials, restores dotfiles and lets the template override _shared', async () => {
    const files = byPath(await renderer.render(root, 'chatbot', variables));
    expect([...files.keys()]).toEqual([
      '.env',
      '.gitignore',
      'bin/run.sh',
      'logo.bin',
      'package.json',
      'README.md',
    ]);
    expect(files.get('README.md')?.content.toString()).toBe(
      '# demo-app (chatbot)\nHello from demo-app\n',
    );
    expect(files.get('.env')?.content.toString()).toBe('OPENAI_API_KEY=<API_KEY>\nA=1\nB=2\n');
    expect(files.get('.gitignore')?.content.toString()).toBe('node_modules\n');
  });

  it('copies other files byte for byte, keeping their mode', async () => {
    const files = byPath(await renderer.render(root, 'chatbot', variables));
    expect(files.get('logo.bin')?.content.equals(BINARY)).toBe(true);
    expect(files.get('bin/run.sh')?.mode).toBe(0o755);
  });

  it('does not HTML-escape values; {{json}} writes JSON literals', async () => {
    const files = byPath(await renderer.render(root, 'chatbot', variables));
    const json = JSON.parse(files.get('package.json')?.content.toString() ?? '') as object;
    expect(json).toEqual({
      name: 'demo-app',
      description: 'A "quoted" <demo> & more',
      dependencies: { toolkit: 'file:/opt/toolkit' },
    });
  });

  it('refuses a template using a variable that is not provided', async () => {
    await expect(renderer.render(root, 'agent', variables)).rejects.toThrow(
      /cannot render .*agent\/app\.ts\.hbs: "missing" not defined/,
    );
  });

  it('refuses a .json file that does not parse', async () => {
    await expect(renderer.render(root, 'api', variables)).rejects.toThrow(
      /api\/package\.json does not render to valid JSON/,
    );
  });

  it('refuses a template folder that does not exist', async () => {
    await expect(renderer.render(root, 'rag', variables)).rejects.toBeInstanceOf(
      TemplateUnavailableError,
    );
  });
});

describe('TemplateRendererService on the real templates', () => {
  const renderer = new TemplateRendererService();
  const toolkit = readToolkitPackage(REPO_ROOT);

  it.each(PROJECT_TEMPLATES)('%s: renders every file SPEC 4.1 promises', async (template) => {
    const deps = projectDependencies(toolkit, template);
    const vars = templateVariables('my-project', template, deps, toolkit.name);
    const files = byPath(await renderer.render(join(REPO_ROOT, 'templates'), template, vars));
    const text = (path: string): string => {
      const file = files.get(path);
      if (!file) throw new Error(`${template}: no ${path} among ${[...files.keys()].join(', ')}`);
      return file.content.toString('utf8');
    };

    expect(text('app.ts')).toMatch(/export const app = new App\(/);
    expect(text('.env')).toMatch(/^OPENAI_API_KEY=<API_KEY>$/m);
    expect(text('.env')).toMatch(/^DEBUG=false$/m);
    const pkg = JSON.parse(text('package.json')) as {
      name: string;
      scripts: Record<string, string>;
      dependencies: Record<string, string>;
    };
    expect(pkg.name).toBe('my-project');
    expect(Object.keys(pkg.scripts)).toEqual(expect.arrayContaining(['dev', 'start', 'test']));
    expect(pkg.dependencies).toMatchObject({
      toolkit: `file:${REPO_ROOT.replace(/\/$/, '')}`,
      openai: expect.any(String),
    });
    expect(JSON.parse(text('tsconfig.json'))).toHaveProperty('compilerOptions');
    expect(text('README.md')).toContain('npm run dev');
    expect(text('.gitignore').split('\n')).toEqual(
      expect.arrayContaining(['.env', 'node_modules', 'dist']),
    );
    const tests = [...files.keys()].filter((path) => /^tests\/.+\.spec\.ts$/.test(path));
    expect(tests.length).toBeGreaterThan(0);
    expect(tests.some((path) => text(path).includes("from 'toolkit/testing'"))).toBe(true);
    if (template === 'rag') {
      expect([...files.keys()].some((path) => path.startsWith('docs/documents/'))).toBe(true);
    }
    // Nothing left unrendered, and no partial folder copied.
    for (const [path, file] of files) {
      if (path.endsWith('.html')) continue;
      expect({ path, leftover: file.content.toString().includes('{{') }).toEqual({
        path,
        leftover: false,
      });
    }
    expect([...files.keys()].some((path) => path.startsWith('partials/'))).toBe(false);
  });
});
