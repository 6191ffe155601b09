import { mkdirSync, writeFileSync } from 'node:fs';
import type { GitState } from './git-state.js';

/**
 * The base name of a run's results file: `<YYYY-MM-DD>-<short sha>`, plus `-dirty` when the
 * tree had uncommitted changes; `label` (`BENCH_LABEL`) goes before the sha, e.g.
 * `2026-11-27-telemetry-6c50aeb`.
 */
export function resultsBaseName(date: string, git: GitState, label?: string): string {
  const name = label ? `${label}-${git.commit}` : git.commit;
  return `${date}-${name}${git.changed.length > 0 ? '-dirty' : ''}`;
}

/**
 * Writes `text` to `<dir><base>.md`, or `<base>-2.md`, `<base>-3.md`, ... when that name is
 * taken: a results file is never overwritten (exclusive create, so two runs finishing at once
 * cannot clobber each other either). Returns the path written.
 */
export function writeNewResultsFile(dir: string, base: string, text: string): string {
  mkdirSync(dir, { recursive: true });
  for (let n = 1; ; n += 1) {
    const file = `${dir}${base}${n === 1 ? '' : `-${n}`}.md`;
    try {
      writeFileSync(file, text, { flag: 'wx' });
      return file;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
}
