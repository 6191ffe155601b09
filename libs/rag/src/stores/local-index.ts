import { BuildAbortedError } from './build-aborted.error.js';
import { IvfIndex } from './ivf-index.js';
import { readIvfFile, removeIvfFile, writeIvfFile } from './ivf-index.file.js';
import { nearestCentroids } from './nearest-centroid.js';
import { sampleIndices, seededRandom } from './seeded-random.js';
import { SLICE_ROWS, sphericalKMeans } from './spherical-kmeans.js';
import type { RowFilter, ScoredRow } from './vector-math.js';
import type { VectorMatrix } from './vector-matrix.js';

/**
 * How a local store searches: `exact` scans every vector (always the true nearest chunks);
 * `ivf` uses an inverted-file index once the store holds at least 1,024 chunks (approximate:
 * recall@10 ≥ 0.95 on embedding-like data at the default `nprobe`); `auto` scans exactly below
 * `exactBelow` chunks and uses the index above.
 */
export type LocalIndexMode = 'auto' | 'exact' | 'ivf';

/** Tuning of a local store's IVF index. */
export interface LocalIvfOptions {
  /**
   * Lists (clusters) scanned per query: more finds more of the true nearest chunks and costs
   * proportionally more time. The index has √chunks lists (316 at 100k chunks). The default
   * scans at least 8 lists and at least 2,500 chunks: 8 of 316 lists at 100k chunks, 18 of 141
   * at 20k, which returned ≥ 95 % of the exact top 10 on clustered data in `bench/rag`.
   * @default max(8, ⌈2500 ÷ mean list length⌉)
   */
  nprobe?: number;
  /**
   * In `auto` mode, collections smaller than this are searched exactly (and no index is built):
   * an exact scan there costs ≤ ~15 ms per query at 384 dimensions and is always right, while
   * the index's recall drops on small collections (see `bench/rag`).
   * @default 20000
   */
  exactBelow?: number;
}

/** What a local store is searching with right now. */
export interface LocalIndexStatus {
  /** `ivf` when searches go through the index, `exact` when they scan every vector. */
  search: 'exact' | 'ivf';
  /** Lists of the current index (0 without one). */
  lists: number;
  /** Lists probed per query. */
  nprobe: number;
  /** Rows the index was trained for (0 without one). */
  trainedRows: number;
  /** True while an index is being trained in the background. */
  building: boolean;
}

/** A stored segment's rows in the store's matrix. */
export interface IndexedSegment {
  segment: string;
  firstRow: number;
  count: number;
}

/** What the index needs from its store. */
export interface IndexHost {
  readonly directory: string;
  readonly embedderId: string;
  readonly dimensions: number;
  readonly matrix: VectorMatrix;
  /** The stored segments. */
  segments(): IndexedSegment[];
  /** Runs `change` while no other change to the store runs. */
  exclusive<T>(change: () => Promise<T>): Promise<T>;
  isClosed(): boolean;
}

const MIN_INDEX_ROWS = 1024;
const DEFAULT_EXACT_BELOW = 20_000;
/** The default nprobe scans at least this many rows. */
const MIN_SCANNED_ROWS = 2500;
/** Training sample per list: enough rows for stable centroids, few enough to train fast. */
const SAMPLE_PER_LIST = 64;
/** Rows assigned but not yet saved before the file is rewritten: bounds the work of a reopen. */
const MIN_UNSAVED = 1024;

/**
 * The search side of a local store: exact scans for small collections, an IVF index (see
 * {@link IvfIndex}) for large ones. The index is trained in the background (yielding to the
 * event loop; searches stay exact meanwhile) once the store reaches the threshold, retrained
 * when the store has doubled since, kept in step with every add and delete, and saved to
 * `ivf.index` — a cache: a missing, stale or damaged file only means exact search until the
 * index is rebuilt.
 */
export class LocalIndex {
  private ivf: IvfIndex | undefined;
  private building: Promise<void> | undefined;
  private unsaved = 0;
  private readonly exactBelow: number;
  private readonly nprobe: number | undefined;

  constructor(
    private readonly host: IndexHost,
    readonly mode: LocalIndexMode,
    options: LocalIvfOptions = {},
  ) {
    this.exactBelow = Math.max(
      MIN_INDEX_ROWS,
      mode === 'ivf' ? MIN_INDEX_ROWS : (options.exactBelow ?? DEFAULT_EXACT_BELOW),
    );
    this.nprobe = options.nprobe;
  }

  /** Current state (for diagnostics and tests). */
  status(): LocalIndexStatus {
    return {
      search: this.useIndex() ? 'ivf' : 'exact',
      lists: this.ivf?.lists ?? 0,
      nprobe: this.probes(),
      trainedRows: this.ivf?.trainedRows ?? 0,
      building: this.building !== undefined,
    };
  }

  /** At open, once the matrix is loaded: reads the saved index, or schedules a build. */
  async load(): Promise<void> {
    if (this.mode === 'exact') return;
    const { host } = this;
    const file = await readIvfFile(host.directory, host);
    if (!file) {
      await removeIvfFile(host.directory);
      this.maybeBuild();
      return;
    }
    const index = new IvfIndex(host.dimensions, file.centroids, file.trainedRows);
    for (const { segment, firstRow, count } of this.orderedSegments()) {
      const saved = file.segments.get(segment);
      if (saved?.length === count) {
        index.append(saved);
      } else {
        index.append(index.assign(host.matrix.view(firstRow, count)));
        this.unsaved += count;
      }
    }
    this.ivf = index;
    this.maybeBuild();
  }

  /** Rows were appended to the matrix (unit `vectors`, back to back). */
  appended(vectors: Float32Array): void {
    if (!this.ivf) return;
    this.ivf.append(this.ivf.assign(vectors));
    this.unsaved += vectors.length / this.host.dimensions;
  }

  /** Rows were removed from the matrix. */
  removed(first: number, count: number): void {
    this.ivf?.remove(first, count);
  }

  /** The store was emptied. */
  async cleared(): Promise<void> {
    this.ivf = undefined;
    this.unsaved = 0;
    await removeIvfFile(this.host.directory);
  }

  /** After a committed change (inside the store's change queue): saves and retrains when due. */
  async afterChange(): Promise<void> {
    if (this.ivf && this.unsaved >= Math.max(MIN_UNSAVED, this.host.matrix.rows / 50)) {
      // The change is committed already: failing to write the cache must not fail it.
      await this.save().catch(() => undefined);
    }
    this.maybeBuild();
  }

  /**
   * The `k` best rows for a unit query among those `accept` lets through: through the index
   * when there is one and it pays.
   */
  search(query: Float32Array, k: number, accept?: RowFilter): ScoredRow[] {
    const { matrix } = this.host;
    if (!this.useIndex() || !this.ivf) return matrix.search(query, k, accept);
    return this.ivf.search(matrix.raw(), query, k, this.probes(), accept);
  }

  /**
   * Makes sure an index trained on the current rows exists (from 1,024 chunks up, unless the
   * mode is `exact`; in `auto` mode searches use it from `exactBelow` chunks): waits for a
   * running build, then trains again unless that build already covered every row.
   */
  async build(): Promise<void> {
    if (this.building) await this.building.catch(() => undefined);
    const rows = this.host.matrix.rows;
    if (this.mode === 'exact' || rows < MIN_INDEX_ROWS || this.ivf?.trainedRows === rows) return;
    this.start();
    await this.building;
  }

  /** Waits for a running build to stop (the store is closing) and saves unsaved assignments. */
  async close(): Promise<void> {
    await this.building?.catch(() => undefined);
    if (this.ivf && this.unsaved > 0) await this.save().catch(() => undefined);
  }

  private useIndex(): boolean {
    const rows = this.host.matrix.rows;
    return this.ivf !== undefined && this.ivf.rows === rows && rows >= this.exactBelow;
  }

  private probes(): number {
    if (this.nprobe !== undefined) return this.nprobe;
    const lists = this.ivf?.lists ?? 0;
    const meanList = lists > 0 ? (this.ivf?.rows ?? 0) / lists : 0;
    return Math.min(lists, Math.max(8, Math.ceil(MIN_SCANNED_ROWS / Math.max(1, meanList))));
  }

  private maybeBuild(): void {
    const rows = this.host.matrix.rows;
    if (this.mode === 'exact' || this.building || this.host.isClosed()) return;
    if (rows < this.exactBelow || (this.ivf && rows < 2 * this.ivf.trainedRows)) return;
    this.start();
  }

  private start(): void {
    const run: Promise<void> = this.train()
      .catch((error: unknown) => {
        if (!(error instanceof BuildAbortedError)) throw error;
      })
      .finally(() => {
        if (this.building === run) this.building = undefined;
      });
    this.building = run;
    // A failed build leaves exact search in place; the next change tries again.
    run.catch(() => undefined);
  }

  private async train(): Promise<void> {
    const { matrix, dimensions } = this.host;
    const rows = matrix.rows;
    const lists = Math.max(1, Math.round(Math.sqrt(rows)));
    const picks = sampleIndices(rows, lists * SAMPLE_PER_LIST, seededRandom(rows));
    const sample = new Float32Array(picks.length * dimensions);
    picks.forEach((row, i) => sample.set(matrix.view(row, 1), i * dimensions));
    const centroids = await sphericalKMeans(sample, picks.length, dimensions, {
      lists,
      pause: () => this.pause(),
    });
    await this.host.exclusive(async () => {
      if (matrix.rows < MIN_INDEX_ROWS) return; // emptied meanwhile
      const index = new IvfIndex(dimensions, centroids, matrix.rows);
      const out = new Int32Array(SLICE_ROWS);
      for (let from = 0; from < matrix.rows; from += SLICE_ROWS) {
        const to = Math.min(matrix.rows, from + SLICE_ROWS);
        nearestCentroids(matrix.raw(), from, to, dimensions, centroids, out);
        index.append(out.subarray(0, to - from));
        await this.pause();
      }
      this.ivf = index;
      this.unsaved = index.rows;
      await this.save().catch(() => undefined); // unsaved: retried after the next changes
    });
  }

  private async pause(): Promise<void> {
    await new Promise<void>((resolve) => setImmediate(resolve));
    if (this.host.isClosed()) throw new BuildAbortedError('store closed');
  }

  /** Writes the index file; runs inside the change queue (or after it closed), so rows hold still. */
  private async save(): Promise<void> {
    const { ivf, host } = this;
    if (!ivf) return;
    const segments = new Map<string, Int32Array>();
    for (const { segment, firstRow, count } of this.orderedSegments()) {
      segments.set(segment, ivf.listsOf(firstRow, count));
    }
    await writeIvfFile(host.directory, {
      embedderId: host.embedderId,
      dimensions: host.dimensions,
      trainedRows: ivf.trainedRows,
      centroids: ivf.centroids,
      segments,
    });
    this.unsaved = 0;
  }

  private orderedSegments(): IndexedSegment[] {
    return this.host.segments().sort((a, b) => a.firstRow - b.firstRow);
  }
}
