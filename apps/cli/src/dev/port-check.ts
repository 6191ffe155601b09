import { createServer } from 'node:net';

/**
 * Resolves true when `host:port` can be bound right now. The CLI checks before spawning the app,
 * so a taken port is one clear error instead of a crash inside the server process.
 *
 * @example
 * if (!(await isPortFree('127.0.0.1', 8000))) throw new CliError('Port 8000 is in use');
 */
export function isPortFree(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', (error: NodeJS.ErrnoException) => resolve(error.code !== 'EADDRINUSE'));
    server.listen({ host, port, exclusive: true }, () => server.close(() => resolve(true)));
  });
}
