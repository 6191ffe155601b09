import type { HttpPlatformChoice } from './http-platform-choice.js';
import type { ProjectTemplate } from './project-templates.js';
import { TemplateUnavailableError } from './new.errors.js';
import { toolkitReference, type ToolkitPackage } from './toolkit-package.js';

/** Packages a generated project lists, by the name of each list in its `package.json`. */
export interface PackageLists {
  dependencies: readonly string[];
  devDependencies: readonly string[];
}

/**
 * What every project depends on besides the toolkit and its required peers (see
 * {@link projectDependencies}): the provider client library; jest with SWC and `@jest/globals`,
 * `@nestjs/testing` (the toolkit's optional peer behind `toolkit/testing`) and TypeScript to test
 * and type-check; nest-commander, the optional peer the CLI's development commands run on
 * (`toolkit start` does not need it, so a production install leaves it and its prompt and
 * completion packages out).
 */
export const BASE_PACKAGES: PackageLists = {
  dependencies: ['openai'],
  devDependencies: [
    '@jest/globals',
    '@nestjs/testing',
    '@swc/core',
    '@swc/jest',
    '@types/jest',
    '@types/node',
    'jest',
    'nest-commander',
    'typescript',
  ],
};

/**
 * What each template imports on top of {@link BASE_PACKAGES}: the RAG document parsers are
 * optional peers of the toolkit, installed by rag projects only.
 */
export const TEMPLATE_PACKAGES: Readonly<Record<ProjectTemplate, Partial<PackageLists>>> = {
  chatbot: {},
  agent: { dependencies: ['@modelcontextprotocol/sdk'], devDependencies: ['zod'] },
  api: {},
  rag: { dependencies: ['cheerio', 'marked', 'unpdf'] },
};

/**
 * The Nest HTTP adapter of each platform: an optional peer of toolkit (a Fastify app installs no
 * express), so a project lists the one it runs on.
 */
export const PLATFORM_PACKAGES: Readonly<Record<HttpPlatformChoice, string>> = {
  express: '@nestjs/platform-express',
  fastify: '@nestjs/platform-fastify',
};

/** The `dependencies` and `devDependencies` of a generated `package.json`, name → version range. */
export interface ProjectDependencies {
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
}

/**
 * The dependencies of a new project from `template`: the toolkit (see {@link toolkitReference}),
 * every peer dependency the toolkit requires (`@nestjs/common`, `@nestjs/core`, `rxjs`,
 * `reflect-metadata`: the project owns the ONE copy that it and the toolkit share, as Nest's
 * dependency injection needs), the platform's adapter ({@link PLATFORM_PACKAGES}) and the
 * packages above, all at the version ranges the toolkit itself is developed with. Keys are
 * sorted, as npm writes them.
 *
 * @example
 * projectDependencies(toolkit, 'chatbot').dependencies['@nestjs/core']; // '^12.5.1'
 */
export function projectDependencies(
  toolkit: ToolkitPackage,
  template: ProjectTemplate,
  platform: HttpPlatformChoice = 'express',
): ProjectDependencies {
  const extra = TEMPLATE_PACKAGES[template];
  const ranges = (names: readonly string[]): Record<string, string> =>
    sortKeys(Object.fromEntries(names.map((name) => [name, versionOf(toolkit, name)])));
  const dependencies = ranges([
    ...toolkit.requiredPeers,
    ...BASE_PACKAGES.dependencies,
    ...(extra.dependencies ?? []),
    PLATFORM_PACKAGES[platform],
  ]);
  return {
    dependencies: sortKeys({ ...dependencies, [toolkit.name]: toolkitReference(toolkit) }),
    devDependencies: ranges([...BASE_PACKAGES.devDependencies, ...(extra.devDependencies ?? [])]),
  };
}

function versionOf(toolkit: ToolkitPackage, name: string): string {
  const range = toolkit.versions[name];
  if (range === undefined) {
    throw new TemplateUnavailableError(`toolkit's package.json does not list ${name}`);
  }
  return range;
}

function sortKeys(record: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(record).sort(([a], [b]) => a.localeCompare(b)));
}
