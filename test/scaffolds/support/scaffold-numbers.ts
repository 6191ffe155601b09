import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '../../../apps/cli/test/support/cli-process.js';

/** What one scaffold run measured; reported, never asserted (a bench reads them later). */
export interface ScaffoldNumbers {
  /** Wall time of each step, in ms, by step name. */
  stepsMs: Record<string, number>;
  /** `npm install <toolkit tarball>`: its time and the packages npm added. */
  toolkitInstall?: { ms: number; addedPackages: number };
  /** Spawn to first answer of `node dist/main`, paired runs, in ms. */
  coldStartMs?: { withoutToolkit: number[]; withToolkit: number[] };
  /** Host answers compared byte for byte (status, content type, body) and found equal. */
  identicalHostAnswers?: number;
  /** Other headers that differed on host routes (`date` aside). */
  headerDifferences?: string[];
}

/**
 * Where {@link writeScaffoldNumbers} puts them, one file per Node major (CI runs the scaffolds on
 * two; test-artifacts/ is git-ignored).
 */
export const NUMBERS_FILE = join(
  REPO_ROOT,
  'test-artifacts',
  'scaffolds',
  `numbers-node${process.versions.node.split('.')[0]}.json`,
);

/** Writes every variant's numbers, with the Node and toolkit they were measured with. */
export function writeScaffoldNumbers(
  tarball: string,
  variants: Record<string, ScaffoldNumbers>,
): void {
  mkdirSync(join(NUMBERS_FILE, '..'), { recursive: true });
  const report = { node: process.version, tarball, measuredAt: new Date().toISOString(), variants };
  writeFileSync(NUMBERS_FILE, `${JSON.stringify(report, null, 2)}\n`);
}

/** The median of a few runs (the middle one, or the mean of the two middle ones). */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}
