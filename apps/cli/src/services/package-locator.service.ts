import { Injectable } from '@nestjs/common';
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** A package found by {@link PackageLocatorService.find}. */
export interface LocatedPackage {
  /** The package folder (symlinks resolved). */
  dir: string;
  /** Its version. */
  version: string;
  /** Its `bin` entries, name → absolute path. */
  bins: Record<string, string>;
}

interface PackageJson {
  name?: string;
  version?: string;
  bin?: string | Record<string, string>;
}

/**
 * Finds packages the way Node does for the PROJECT: `node_modules/<name>` in the project folder
 * and each folder above it. Tools the CLI runs (jest, vitepress) and the HTTP platform must come
 * from the user's project, never from toolkit's own dependencies.
 *
 * @example
 * const jest = locator.find('jest', process.cwd())?.bins.jest;
 */
@Injectable()
export class PackageLocatorService {
  /** The package as the project at `fromDir` would load it, or `undefined`. */
  find(name: string, fromDir: string): LocatedPackage | undefined {
    let dir = fromDir;
    for (;;) {
      const manifest = join(dir, 'node_modules', name, 'package.json');
      if (existsSync(manifest)) return this.describe(dirname(realpathSync(manifest)));
      const parent = dirname(dir);
      if (parent === dir) return undefined;
      dir = parent;
    }
  }

  /**
   * The package as the project's copy of `via` would load it: a dependency of a dependency
   * (the HTTP platform toolkit itself imports) may live beside `via` rather than in the project.
   */
  findThrough(name: string, via: string, fromDir: string): LocatedPackage | undefined {
    const direct = this.find(name, fromDir);
    if (direct) return direct;
    const carrier = this.find(via, fromDir);
    return carrier ? this.find(name, carrier.dir) : undefined;
  }

  private describe(dir: string): LocatedPackage {
    const json = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as PackageJson;
    const raw = typeof json.bin === 'string' ? { [json.name ?? '']: json.bin } : (json.bin ?? {});
    const bins = Object.fromEntries(
      Object.entries(raw).map(([bin, file]) => [bin, join(dir, file)]),
    );
    return { dir, version: json.version ?? '0.0.0', bins };
  }
}
