import { watch, readdirSync, statSync, type FSWatcher } from 'node:fs';
import { join, relative, sep } from 'node:path';

/** Options of a {@link SourceWatcher}. */
export interface SourceWatcherOptions {
  /** Folder watched, with all its sub-folders except the ignored ones. */
  root: string;
  /** File endings that count as a change. @default ['.ts', '.mts', '.cts', '.tsx'] */
  extensions?: readonly string[];
  /** File endings never counted even when an extension matches. @default ['.d.ts'] */
  excludeSuffixes?: readonly string[];
  /** Files (relative to `root`) whose edits count whatever their ending. @default ['toolkit.yaml', '.env'] */
  configFiles?: readonly string[];
  /** Top-level folders where every file counts (prompt templates). @default ['prompts'] */
  anyFileDirs?: readonly string[];
  /** Folder names never entered (any depth); folders starting with `.` are skipped too. */
  ignoreDirs?: readonly string[];
  /** Quiet time after the last event before `onChange` runs, in ms. @default 150 */
  debounceMs?: number;
  /** Receives the changed files (relative to `root`) of one burst of events. */
  onChange: (files: string[]) => void;
}

/** Folders that never hold the app's own sources: dependencies, VCS data, compiled output. */
export const DEFAULT_IGNORED_DIRS = ['node_modules', 'dist', 'build', 'coverage', 'site'] as const;

/**
 * Watches a source tree for `*.ts` edits with one inotify watch per folder. Node 20's
 * `fs.watch(..., { recursive: true })` on Linux polls every file it finds (node_modules
 * included), so the walk here skips ignored folders before anything is watched, and adds
 * folders created later. Bursts of events (editors save in several steps) are debounced.
 *
 * @example
 * const watcher = new SourceWatcher({ root: process.cwd(), onChange: (files) => restart(files) });
 * watcher.start();
 */
export class SourceWatcher {
  private readonly watchers = new Map<string, FSWatcher>();
  private readonly pending = new Set<string>();
  private timer: NodeJS.Timeout | undefined;
  private readonly extensions: readonly string[];
  private readonly excludeSuffixes: readonly string[];
  private readonly ignoreDirs: ReadonlySet<string>;

  constructor(private readonly options: SourceWatcherOptions) {
    this.extensions = options.extensions ?? ['.ts', '.mts', '.cts', '.tsx'];
    this.excludeSuffixes = options.excludeSuffixes ?? ['.d.ts'];
    this.ignoreDirs = new Set(options.ignoreDirs ?? DEFAULT_IGNORED_DIRS);
  }

  /** Number of folders currently watched. */
  get watchedFolderCount(): number {
    return this.watchers.size;
  }

  /** Starts watching `root` and every folder below it that is not ignored. */
  start(): void {
    this.watchTree(this.options.root);
  }

  /** Stops every watch and drops pending events. */
  close(): void {
    clearTimeout(this.timer);
    this.pending.clear();
    for (const watcher of this.watchers.values()) watcher.close();
    this.watchers.clear();
  }

  /**
   * True when a file of that path counts as a change: a source file, `toolkit.yaml`, `.env`, or
   * any file under `prompts/`.
   */
  isSourceFile(path: string): boolean {
    const rel = relative(this.options.root, path);
    if ((this.options.configFiles ?? ['toolkit.yaml', '.env']).includes(rel)) return true;
    const parts = rel.split(sep);
    if (
      parts.length > 1 &&
      (this.options.anyFileDirs ?? ['prompts']).includes(parts[0]) &&
      !parts.slice(0, -1).some((part) => this.isIgnoredDir(part)) &&
      !parts[parts.length - 1].startsWith('.')
    )
      return true;
    if (this.excludeSuffixes.some((suffix) => path.endsWith(suffix))) return false;
    if (!this.extensions.some((ext) => path.endsWith(ext))) return false;
    return !relative(this.options.root, path)
      .split(sep)
      .slice(0, -1)
      .some((part) => this.isIgnoredDir(part));
  }

  private isIgnoredDir(name: string): boolean {
    return name.startsWith('.') || this.ignoreDirs.has(name);
  }

  private watchTree(dir: string): void {
    if (this.watchers.has(dir)) return;
    let watcher: FSWatcher;
    try {
      watcher = watch(dir, (_event, name) => this.onEvent(dir, name));
    } catch {
      return; // vanished or unreadable: nothing to watch
    }
    watcher.on('error', () => this.unwatch(dir));
    this.watchers.set(dir, watcher);
    let entries: string[];
    try {
      entries = readdirSync(dir, { withFileTypes: true })
        .filter((entry) => entry.isDirectory() && !this.isIgnoredDir(entry.name))
        .map((entry) => entry.name);
    } catch {
      return;
    }
    for (const name of entries) this.watchTree(join(dir, name));
  }

  private unwatch(dir: string): void {
    for (const [path, watcher] of this.watchers) {
      if (path === dir || path.startsWith(dir + sep)) {
        watcher.close();
        this.watchers.delete(path);
      }
    }
  }

  private onEvent(dir: string, name: string | Buffer | null): void {
    if (name === null) return;
    const path = join(dir, name.toString());
    if (this.isSourceFile(path)) {
      this.schedule(path);
      return;
    }
    if (this.isIgnoredDir(name.toString())) return;
    try {
      if (statSync(path).isDirectory()) this.watchTree(path);
    } catch {
      this.unwatch(path); // a folder was removed
    }
  }

  private schedule(path: string): void {
    this.pending.add(relative(this.options.root, path));
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      const files = [...this.pending].sort();
      this.pending.clear();
      this.options.onChange(files);
    }, this.options.debounceMs ?? 150);
  }
}
