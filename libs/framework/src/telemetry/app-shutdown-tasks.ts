/** Work to finish when an app closes, by its HTTP platform instance. */
const tasks = new WeakMap<object, (() => Promise<void>)[]>();

/**
 * Runs `task` when the app serving with `instance` (its HTTP adapter's instance) closes, after
 * its streams and backends: what code installed outside Nest's container (tracing) flushes
 * and releases there.
 *
 * @example
 * onAppShutdown(nest.getHttpAdapter().getInstance(), () => provider.shutdown());
 */
export function onAppShutdown(instance: object, task: () => Promise<void>): void {
  tasks.set(instance, [...(tasks.get(instance) ?? []), task]);
}

/** Runs (once) the tasks registered for `instance`; a failing task does not stop the others. */
export async function runAppShutdownTasks(instance: object): Promise<void> {
  const pending = tasks.get(instance) ?? [];
  tasks.delete(instance);
  await Promise.allSettled(pending.map((task) => task()));
}
