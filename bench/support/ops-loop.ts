/** What {@link runOps} measured. */
export interface OpsResult {
  ops: number;
  seconds: number;
  opsPerSec: number;
  /** This process's CPU time (user + system) per op: steadier than ops/s on a busy machine. */
  cpuMicrosPerOp: number;
}

/**
 * Runs `op(lane)` in `concurrency` parallel lanes, each calling it again as soon as it settles,
 * for `seconds` (after `warmupSeconds` unmeasured), and counts completed calls. Any failure
 * aborts the run: a benchmark that errors measures nothing.
 *
 * @example
 * const { opsPerSec } = await runOps((lane) => memory(lane).add('user', 'hi'), { seconds: 10, concurrency: 8 });
 */
export async function runOps(
  op: (lane: number) => Promise<unknown>,
  options: { seconds: number; concurrency: number; warmupSeconds?: number },
): Promise<OpsResult> {
  const loop = async (lane: number, until: number, counter: { n: number }): Promise<void> => {
    while (performance.now() < until) {
      await op(lane);
      counter.n += 1;
    }
  };
  const lanes = Array.from({ length: options.concurrency }, (_, i) => i);
  if (options.warmupSeconds) {
    const until = performance.now() + options.warmupSeconds * 1000;
    await Promise.all(lanes.map((lane) => loop(lane, until, { n: 0 })));
  }
  const start = performance.now();
  const cpuStart = process.cpuUsage();
  const until = start + options.seconds * 1000;
  const counter = { n: 0 };
  await Promise.all(lanes.map((lane) => loop(lane, until, counter)));
  const seconds = (performance.now() - start) / 1000;
  const cpu = process.cpuUsage(cpuStart);
  return {
    ops: counter.n,
    seconds,
    opsPerSec: counter.n / seconds,
    cpuMicrosPerOp: (cpu.user + cpu.system) / counter.n,
  };
}

/** Prints a worker's result as the last stdout line (read by `runWorker`). */
export function report(result: object): void {
  process.stdout.write(`${JSON.stringify(result)}\n`);
}
