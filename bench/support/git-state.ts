import { execFileSync } from 'node:child_process';

/** Results files are outputs of the bench, not inputs: they never make the tree dirty. */
const OUTPUTS = 'bench/results/';

/** The commit a run measures, and whether the work tree differed from it. */
export interface GitState {
  /** Abbreviated commit hash of HEAD, e.g. `6c50aeb`. */
  commit: string;
  /** Paths with uncommitted changes (staged, unstaged or untracked), outside `bench/results/`. */
  changed: string[];
}

function git(root: string, args: string[]): string {
  return execFileSync('git', args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] }).toString();
}

/**
 * Reads HEAD and the uncommitted changes of the repository at `root`. Throws when `root` is not
 * a git work tree: a run that cannot name its commit cannot be recorded honestly.
 */
export function readGitState(root: string): GitState {
  const commit = git(root, ['rev-parse', '--short', 'HEAD']).trim();
  const changed = git(root, ['status', '--porcelain', '--untracked-files=all'])
    .split('\n')
    .filter(Boolean)
    .map((line) => line.slice(3))
    .filter((path) => !path.startsWith(OUTPUTS));
  return { commit, changed };
}
