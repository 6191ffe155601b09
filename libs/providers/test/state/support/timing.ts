import net from 'node:net';

/** A TCP port that was free a moment ago. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** Retries `attempt` until it resolves or `timeoutMs` passes; returns its value. */
export async function eventually<T>(attempt: () => Promise<T>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await attempt();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

/** How long `promise` takes to settle, and how it settled. */
export async function timed<T>(
  promise: Promise<T>,
): Promise<{ ms: number; error: unknown; value: T | undefined }> {
  const start = performance.now();
  try {
    const value = await promise;
    return { ms: performance.now() - start, error: undefined, value };
  } catch (error) {
    return { ms: performance.now() - start, error, value: undefined };
  }
}
