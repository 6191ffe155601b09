import { createConnection, createServer, type Server, type Socket } from 'node:net';

/**
 * A TCP proxy to stand between a client and a server (Redis) and cut the line on demand:
 * `cut()` destroys every open connection and stops accepting (clients see a reset, then
 * refused connections), `restore()` listens again on the same port.
 *
 * @example
 * const proxy = await TcpProxy.start(6379);
 * const url = `redis://127.0.0.1:${proxy.port}`;
 * await proxy.cut();
 * await proxy.restore();
 * await proxy.close();
 */
export class TcpProxy {
  private server?: Server;
  private readonly sockets = new Set<Socket>();
  /** Connections accepted since the proxy started (each reconnect is one). */
  accepted = 0;

  private constructor(
    private readonly targetPort: number,
    private readonly targetHost: string,
    public port = 0,
  ) {}

  /** Starts a proxy on a free port of 127.0.0.1, forwarding to `targetHost:targetPort`. */
  static async start(targetPort: number, targetHost = '127.0.0.1'): Promise<TcpProxy> {
    const proxy = new TcpProxy(targetPort, targetHost);
    await proxy.restore();
    return proxy;
  }

  /** True while the proxy accepts connections. */
  get up(): boolean {
    return this.server !== undefined;
  }

  /** Drops every connection and stops accepting new ones. */
  async cut(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    for (const socket of this.sockets) socket.destroy();
    this.sockets.clear();
    if (server) await new Promise<void>((done) => server.close(() => done()));
  }

  /** Accepts connections again, on the same port as before. */
  async restore(): Promise<void> {
    if (this.server) return;
    const server = createServer((client) => this.pipe(client));
    await new Promise<void>((done, fail) => {
      server.once('error', fail);
      server.listen(this.port, '127.0.0.1', () => done());
    });
    const address = server.address();
    if (address && typeof address === 'object') this.port = address.port;
    this.server = server;
  }

  async close(): Promise<void> {
    await this.cut();
  }

  private pipe(client: Socket): void {
    this.accepted += 1;
    const upstream = createConnection(this.targetPort, this.targetHost);
    this.sockets.add(client);
    this.sockets.add(upstream);
    const drop = (): void => {
      client.destroy();
      upstream.destroy();
      this.sockets.delete(client);
      this.sockets.delete(upstream);
    };
    client.on('error', drop).on('close', drop);
    upstream.on('error', drop).on('close', drop);
    client.pipe(upstream);
    upstream.pipe(client);
  }
}
