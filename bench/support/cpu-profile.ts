import { readFileSync } from 'node:fs';

/** One function of a V8 CPU profile (`--cpu-prof`), as much of it as the summary reads. */
interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}

interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

/**
 * A stretch of time on the monotonic clock, in microseconds: V8 stamps profile samples with it,
 * and another process on the same Linux machine reads it as `process.hrtime.bigint() / 1000n`.
 */
export interface ProfileWindow {
  fromMicros: number;
  toMicros: number;
}

/** Self time of one function, in microseconds. */
export interface FunctionTime {
  /** `name (file:line)`, the file shortened to its package or repository path. */
  name: string;
  bucket: string;
  micros: number;
}

/** A profile's self time per bucket and per function, in microseconds. */
export interface ProfileSummary {
  buckets: Record<string, number>;
  functions: FunctionTime[];
  /** Microseconds of samples summed (all of the window when one was given). */
  sampledMicros: number;
}

/**
 * Where a function's code lives: `bucketOf(url)` names the bucket (e.g. "OpenTelemetry SDK");
 * V8's pseudo-functions `(garbage collector)`, `(program)` and `(idle)` are buckets of their own.
 */
export type Bucketer = (url: string, functionName: string) => string;

function shortName(node: ProfileNode): string {
  const { functionName, url, lineNumber } = node.callFrame;
  const file = url.replace(/^.*node_modules\//, '').replace(/^.*\/dist\//, '');
  return `${functionName || '(anonymous)'}${file ? ` (${file}:${lineNumber + 1})` : ''}`;
}

/**
 * Reads a `.cpuprofile` and sums its self time (sample intervals) per bucket and per function,
 * counting only the samples inside `window` when one is given (e.g. a measured run, without the
 * start-up and warm-up before it).
 *
 * @example
 * const { buckets } = summarizeProfile(file, (url) => (url.includes('@opentelemetry') ? 'otel' : 'rest'));
 */
export function summarizeProfile(
  file: string,
  bucketOf: Bucketer,
  window?: ProfileWindow,
): ProfileSummary {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const selfMicros = new Map<number, number>();
  let at = profile.startTime;
  let sampledMicros = 0;
  profile.samples.forEach((id, i) => {
    const delta = profile.timeDeltas[i] ?? 0;
    at += delta;
    if (window && (at < window.fromMicros || at > window.toMicros)) return;
    sampledMicros += delta;
    selfMicros.set(id, (selfMicros.get(id) ?? 0) + delta);
  });
  const buckets: Record<string, number> = {};
  const functions = new Map<string, FunctionTime>();
  for (const [id, micros] of selfMicros) {
    const node = byId.get(id);
    if (!node) continue;
    const bucket = bucketOf(node.callFrame.url, node.callFrame.functionName);
    buckets[bucket] = (buckets[bucket] ?? 0) + micros;
    const name = shortName(node);
    const entry = functions.get(name) ?? { name, bucket, micros: 0 };
    entry.micros += micros;
    functions.set(name, entry);
  }
  const sorted = [...functions.values()].sort((a, b) => b.micros - a.micros);
  return { buckets, functions: sorted, sampledMicros };
}
