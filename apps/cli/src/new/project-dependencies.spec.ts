import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { TemplateUnavailableError } from './new.errors.js';
import { projectDependencies } from './project-dependencies.js';
import { PROJECT_TEMPLATES, type ProjectTemplate } from './project-templates.js';
import { listTemplateFiles, SHARED_TEMPLATE } from './template-files.js';
import {
  isLocalCheckout,
  readToolkitPackage,
  toolkitReference,
  type ToolkitPackage,
} from './toolkit-package.js';

const REPO_ROOT = fileURLToPath(new URL('../../../../', import.meta.url)).replace(/\/$/, '');
const ownPackage = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as {
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
  peerDependencies: Record<string, string>;
};

describe('toolkit reference', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'toolkit-package-'));
    writeFileSync(join(dir, 'package.json'), '{"name":"toolkit","version":"1.2.3"}');
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('is file:<root> for this checkout', () => {
    const toolkit = readToolkitPackage(`${REPO_ROOT}/`);
    expect(isLocalCheckout(toolkit.root)).toBe(true);
    expect(toolkitReference(toolkit)).toBe(`file:${REPO_ROOT}`);
  });

  it('is ^<version> for an installed package, and file: once it holds libs/', () => {
    expect(toolkitReference(readToolkitPackage(dir))).toBe('^1.2.3');
    mkdirSync(join(dir, 'libs'));
    expect(toolkitReference(readToolkitPackage(dir))).toBe(`file:${dir}`);
  });

  it('fails clearly without a package.json', () => {
    expect(() => readToolkitPackage(join(dir, 'nowhere'))).toThrow(TemplateUnavailableError);
  });
});

describe('projectDependencies', () => {
  const toolkit = readToolkitPackage(REPO_ROOT);
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'toolkit-peers-'));
    mkdirSync(join(dir, 'libs'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("lists the toolkit's required peers and the provider client at the toolkit's own ranges", () => {
    const { dependencies, devDependencies } = projectDependencies(toolkit, 'chatbot');
    expect(dependencies).toEqual({
      '@nestjs/common': ownPackage.devDependencies['@nestjs/common'],
      '@nestjs/core': ownPackage.devDependencies['@nestjs/core'],
      '@nestjs/platform-express': ownPackage.devDependencies['@nestjs/platform-express'],
      openai: ownPackage.peerDependencies.openai,
      'reflect-metadata': ownPackage.devDependencies['reflect-metadata'],
      rxjs: ownPackage.devDependencies.rxjs,
      toolkit: `file:${REPO_ROOT}`,
    });
    // The peers admit Nest 11 and 12; a new project gets the Nest toolkit is developed with.
    for (const name of ['@nestjs/common', '@nestjs/core', '@nestjs/platform-express']) {
      expect(ownPackage.peerDependencies[name]).toContain(
        `^${dependencies[name].replace(/^\^/, '').split('.')[0]}.`,
      );
    }
    for (const name of ['jest', '@swc/jest', '@types/jest', '@types/node', 'typescript']) {
      expect(devDependencies[name]).toBe(ownPackage.devDependencies[name]);
    }
    expect(devDependencies['@nestjs/testing']).toBe(ownPackage.devDependencies['@nestjs/testing']);
    expect(devDependencies['@swc/core']).toBe(ownPackage.dependencies['@swc/core']);
  });

  it('follows the peers the toolkit declares, leaving the optional ones out but the platform', () => {
    writeFileSync(
      join(dir, 'package.json'),
      JSON.stringify({
        name: 'toolkit',
        version: '1.2.3',
        dependencies: { openai: '^6.0.0' },
        devDependencies: { rxjs: '^7.8.2' },
        peerDependencies: { '@nestjs/core': '^12.0.0', rxjs: '^7.1.0', extra: '^1.0.0' },
        peerDependenciesMeta: { extra: { optional: true } },
      }),
    );
    const declared = readToolkitPackage(dir);
    expect(declared.requiredPeers).toEqual(['@nestjs/core', 'rxjs']);
    // The dev tools still come from this checkout's package.json.
    const versions = { ...toolkit.versions, ...declared.versions };
    const { dependencies } = projectDependencies({ ...declared, versions }, 'chatbot');
    expect(dependencies).toEqual({
      '@nestjs/core': '^12.0.0',
      '@nestjs/platform-express': ownPackage.devDependencies['@nestjs/platform-express'],
      openai: '^6.0.0',
      rxjs: '^7.8.2',
      toolkit: `file:${dir}`,
    });
  });

  it('gives the RAG document parsers (optional peers of the toolkit) to rag projects only', () => {
    const parsers = ['cheerio', 'marked', 'unpdf'];
    const rag = projectDependencies(toolkit, 'rag').dependencies;
    for (const name of parsers) {
      expect(toolkit.requiredPeers).not.toContain(name);
      expect(rag[name]).toBe(ownPackage.peerDependencies[name]);
      for (const template of ['chatbot', 'agent', 'api'] as const)
        expect(projectDependencies(toolkit, template).dependencies).not.toHaveProperty(name);
    }
  });

  it("gives the MCP SDK (an optional peer of the toolkit) and zod, its tests' schemas, to agent projects only", () => {
    const agent = projectDependencies(toolkit, 'agent');
    expect(toolkit.requiredPeers).not.toContain('@modelcontextprotocol/sdk');
    expect(agent.dependencies['@modelcontextprotocol/sdk']).toBe(
      ownPackage.devDependencies['@modelcontextprotocol/sdk'],
    );
    expect(agent.devDependencies.zod).toBe(ownPackage.devDependencies.zod);
    for (const template of ['chatbot', 'api', 'rag'] as const) {
      const other = projectDependencies(toolkit, template);
      expect(other.dependencies).not.toHaveProperty('@modelcontextprotocol/sdk');
      expect(other.devDependencies).not.toHaveProperty('zod');
    }
  });

  it("adds the platform's adapter only, at the version toolkit uses: no express on Fastify", () => {
    for (const template of PROJECT_TEMPLATES) {
      const fastify = projectDependencies(toolkit, template, 'fastify').dependencies;
      expect(fastify['@nestjs/platform-fastify']).toBe(
        ownPackage.devDependencies['@nestjs/platform-fastify'],
      );
      expect(fastify).not.toHaveProperty('@nestjs/platform-express');
      expect(projectDependencies(toolkit, template).dependencies).not.toHaveProperty(
        '@nestjs/platform-fastify',
      );
      // No template imports a platform's types: the same code runs on both.
      expect(projectDependencies(toolkit, template).devDependencies).not.toHaveProperty(
        '@types/express',
      );
    }
  });

  it('fails clearly when the toolkit does not list a needed package', () => {
    const bare: ToolkitPackage = { ...toolkit, versions: {} };
    expect(() => projectDependencies(bare, 'chatbot')).toThrow(/does not list @nestjs\/common/);
  });
});

/** Bare module specifiers a source file imports, and whether only types come from each. */
function importsOf(source: string): Array<{ pkg: string; typeOnly: boolean }> {
  const found = source.matchAll(
    /^\s*(import|export)\s+(type\s+)?(?:[^'"]*?\sfrom\s+)?['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/gm,
  );
  return [...found]
    .map((match) => ({ specifier: match[3] ?? match[4], typeOnly: match[2] !== undefined }))
    .filter(({ specifier }) => !specifier.startsWith('.') && !specifier.startsWith('node:'))
    .map(({ specifier, typeOnly }) => {
      const parts = specifier.split('/');
      return { pkg: parts.slice(0, specifier.startsWith('@') ? 2 : 1).join('/'), typeOnly };
    });
}

describe('every package a template imports is in its package.json', () => {
  const toolkit = readToolkitPackage(REPO_ROOT);
  const templates = join(REPO_ROOT, 'templates');

  it.each(PROJECT_TEMPLATES)('%s', (template: ProjectTemplate) => {
    const { dependencies, devDependencies } = projectDependencies(toolkit, template);
    const undeclared: string[] = [];
    for (const folder of [SHARED_TEMPLATE, template]) {
      for (const file of listTemplateFiles(join(templates, folder), ['partials'])) {
        if (!/\.(ts|js)(\.hbs)?$/.test(file)) continue;
        for (const { pkg, typeOnly } of importsOf(
          readFileSync(join(templates, folder, file), 'utf8'),
        )) {
          const declared =
            pkg in dependencies ||
            pkg in devDependencies ||
            (typeOnly && `@types/${pkg}` in devDependencies);
          if (!declared) undeclared.push(`${folder}/${file}: ${pkg}`);
        }
      }
    }
    expect(undeclared).toEqual([]);
  });

  it('finds imports the way the check above relies on', () => {
    expect(
      importsOf(
        "import { A } from '@nestjs/common';\nimport type { R } from 'express';\n" +
          "import { x } from './x.js';\nimport { y } from 'toolkit/rag';\nimport 'reflect-metadata';\n" +
          "const m = await import('yaml');\n",
      ),
    ).toEqual([
      { pkg: '@nestjs/common', typeOnly: false },
      { pkg: 'express', typeOnly: true },
      { pkg: 'toolkit', typeOnly: false },
      { pkg: 'reflect-metadata', typeOnly: false },
      { pkg: 'yaml', typeOnly: false },
    ]);
  });
});
