import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';

/**
 * Pins every thread of process `pid` to the CPUs of `cpuList` (taskset's list syntax, e.g. `1`
 * or `0-1`), so a load generator and the server it drives do not take turns on one core.
 * Returns false, and pins nothing, on a machine with fewer than two CPUs or without `taskset`.
 *
 * @example
 * pinToCpus(process.pid, '0'); // the harness and its autocannon
 * pinToCpus(server.pid, '1');  // the server under test
 * pinToCpus(process.pid, allCpus()); // undone
 */
export function pinToCpus(pid: number, cpuList: string): boolean {
  if (os.cpus().length < 2) return false;
  try {
    execFileSync('taskset', ['--all-tasks', '--cpu-list', '--pid', cpuList, String(pid)], {
      stdio: 'ignore',
    });
    return true;
  } catch {
    return false;
  }
}

/** Every CPU of the machine as a taskset list, e.g. `0-1`. */
export function allCpus(): string {
  return `0-${os.cpus().length - 1}`;
}

/**
 * Sets the nice value of every thread of process `pid` (threads it starts later inherit it), and
 * of its scheduler autogroup (its session), since with `sched_autogroup` the CPU is first shared
 * between sessions and a nice value counts only inside one: a measurement on a machine busy with
 * other work then gets the CPU first. A negative value needs root; returns false when it could
 * not be set.
 *
 * @example
 * setNice(server.pid, -15); // before measuring
 * setNice(process.pid, 0);  // after
 */
export function setNice(pid: number, nice: number): boolean {
  try {
    for (const thread of readdirSync(`/proc/${pid}/task`)) os.setPriority(Number(thread), nice);
    if (existsSync(`/proc/${pid}/autogroup`)) writeFileSync(`/proc/${pid}/autogroup`, String(nice));
    return true;
  } catch {
    return false;
  }
}

/**
 * Microseconds during which some runnable task waited for a CPU since boot (Linux PSI,
 * `/proc/pressure/cpu`); NaN where not available. The difference over a measurement says how
 * busy the machine was with other work.
 */
export function cpuPressureMicros(): number {
  try {
    const some = readFileSync('/proc/pressure/cpu', 'utf8').split('\n')[0];
    return Number(/total=(\d+)/.exec(some)?.[1] ?? NaN);
  } catch {
    return NaN;
  }
}
