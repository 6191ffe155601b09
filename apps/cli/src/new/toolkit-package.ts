import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { TemplateUnavailableError } from './new.errors.js';

/** The parts of the running toolkit's own `package.json` that `toolkit new` builds on. */
export interface ToolkitPackage {
  /** Folder of the toolkit package (holds `package.json` and `templates/`). */
  root: string;
  /** Package name, e.g. `toolkit`: what generated code imports. */
  name: string;
  /** Package version, e.g. `0.1.0`. */
  version: string;
  /**
   * Its dependencies, devDependencies and peerDependencies together, name → version range. A
   * package in several lists has its devDependency range: the version the toolkit is developed
   * and tested with, which lies inside the peer range.
   */
  versions: Readonly<Record<string, string>>;
  /**
   * The peer dependencies a project must install itself (the optional ones left out): the Nest
   * packages, `rxjs` and `reflect-metadata`, of which an app may hold only ONE copy.
   */
  requiredPeers: readonly string[];
}

interface PackageJson {
  name?: string;
  version?: string;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
}

/**
 * Reads the toolkit's `package.json` in `root`. Generated projects take their versions from it
 * (the same `@nestjs/*`, jest and TypeScript as the toolkit), so an install hits the npm cache
 * and satisfies the toolkit's peer dependencies with one copy of each Nest package.
 *
 * @example
 * readToolkitPackage(readPackageInfo().root).versions['@nestjs/core']; // '^12.5.1'
 */
export function readToolkitPackage(root: string): ToolkitPackage {
  let json: PackageJson;
  try {
    json = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as PackageJson;
  } catch (error) {
    throw new TemplateUnavailableError(
      `cannot read ${join(root, 'package.json')} (${String(error)})`,
    );
  }
  return {
    root: resolve(root),
    name: json.name ?? 'toolkit',
    version: json.version ?? '0.0.0',
    versions: { ...json.peerDependencies, ...json.devDependencies, ...json.dependencies },
    requiredPeers: Object.keys(json.peerDependencies ?? {}).filter(
      (name) => json.peerDependenciesMeta?.[name]?.optional !== true,
    ),
  };
}

/**
 * True when the toolkit runs from a source checkout (a `.git` or `libs/` folder beside its
 * `package.json`) rather than from an installed package, which has neither.
 */
export function isLocalCheckout(root: string): boolean {
  return existsSync(join(root, '.git')) || existsSync(join(root, 'libs'));
}

/**
 * How a generated `package.json` depends on the toolkit: `file:<root>` for a local checkout (an
 * install works offline, with no registry copy of the toolkit), else `^<version>` from the registry.
 *
 * @example
 * toolkitReference({ root: '/src/toolkit', ... }); // 'file:/src/toolkit' when it is a checkout
 */
export function toolkitReference(toolkit: ToolkitPackage): string {
  return isLocalCheckout(toolkit.root) ? `file:${toolkit.root}` : `^${toolkit.version}`;
}
