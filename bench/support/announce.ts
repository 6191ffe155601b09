import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Tells the harness a benchmark server is listening: prints `READY <port>` on stdout, and
 * closes the server on SIGTERM so `--cpu-prof` profiles are written on the way out.
 */
export function announce(
  server: Server,
  close: () => Promise<void> = () => closeServer(server),
): void {
  const { port } = server.address() as AddressInfo;
  process.stdout.write(`READY ${port}\n`);
  process.once('SIGTERM', () => {
    void close().finally(() => process.exit(0));
  });
}

function closeServer(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}
