/**
 * Loads an optional peer dependency of tracing, or fails with an error saying how to install
 * it (the bare "Cannot find package" would not say that `telemetry` tracing asked for it).
 *
 * @example
 * const { NodeTracerProvider } = await loadPeer('@opentelemetry/sdk-trace-node', () => import('@opentelemetry/sdk-trace-node'));
 */
export async function loadPeer<T>(name: string, load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (error) {
    if (!isNotFound(error)) throw error;
    throw new Error(
      `Tracing is on (telemetry.enabled or OTEL_EXPORTER_OTLP_ENDPOINT) but ${name} is not ` +
        `installed: npm install ${name}`,
      { cause: error },
    );
  }
}

/** Whether `error` says a package could not be found, not that loading it failed. */
export function isNotFound(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND';
}
