import { ServerProcess } from './server-process.js';

/** Progress lines go to stderr so stdout keeps only the table. */
export function log(message: string): void {
  process.stderr.write(`[bench] ${message}\n`);
}

/**
 * Measures every key once per round, rotating the order each round so neither side always runs
 * first (drift in machine load then hits both alike). Returns the per-round values per key.
 */
export async function interleave<K extends string, T = number>(
  keys: readonly K[],
  rounds: number,
  measure: (key: K, round: number) => Promise<T>,
): Promise<Record<K, T[]>> {
  const values = Object.fromEntries(keys.map((k) => [k, [] as T[]])) as Record<K, T[]>;
  for (let round = 0; round < rounds; round += 1) {
    const order = [...keys.slice(round % keys.length), ...keys.slice(0, round % keys.length)];
    for (const key of order) {
      const value = await measure(key, round);
      log(`  round ${round + 1}/${rounds} ${key}: ${show(value)}`);
      values[key].push(value);
    }
  }
  return values;
}

function show(value: unknown): string {
  if (typeof value === 'number') return value.toFixed(2);
  return Object.entries(value as Record<string, number>)
    .map(([name, v]) => `${name} ${v.toFixed(1)}`)
    .join(', ');
}

/**
 * Starts one server process per entry (scripts relative to `dist/bench/`), runs `body` with them
 * and always stops them.
 */
export async function withServers<K extends string, T>(
  scripts: Record<K, { script: string; env?: Record<string, string> }>,
  body: (servers: Record<K, ServerProcess>) => Promise<T>,
): Promise<T> {
  const started: Partial<Record<K, ServerProcess>> = {};
  try {
    for (const [key, { script, env }] of Object.entries(scripts) as [
      K,
      { script: string; env?: Record<string, string> },
    ][]) {
      started[key] = await ServerProcess.start(key, script, env);
    }
    return await body(started as Record<K, ServerProcess>);
  } finally {
    const running = Object.values<ServerProcess | undefined>(started).filter(
      (s): s is ServerProcess => s !== undefined,
    );
    await Promise.all(running.map((s) => s.stop()));
  }
}
