import net from 'node:net';

/**
 * A TCP proxy to a real backend that the test can turn into a black hole: while `hole()` is on,
 * it accepts connections and reads what clients send but never answers (like a server that is
 * frozen, or a firewall dropping replies). `answer()` forwards again, including what the frozen
 * connections sent meanwhile, like the same server waking up.
 */
export class BlackHoleProxy {
  private server: net.Server | undefined;
  private swallowing = false;
  private readonly frozen = new Map<net.Socket, Buffer[]>();
  private readonly sockets = new Set<net.Socket>();

  constructor(
    readonly port: number,
    private readonly target: { host: string; port: number },
  ) {}

  /** Starts listening; forwarding unless `hole()` was called. */
  async open(): Promise<void> {
    const server = net.createServer((client) => {
      this.sockets.add(client);
      client.once('close', () => {
        this.sockets.delete(client);
        this.frozen.delete(client);
      });
      client.on('error', () => client.destroy());
      if (this.swallowing) this.freeze(client);
      else this.forward(client, []);
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => resolve());
    });
    this.server = server;
  }

  /** From now on nothing answers: new connections and open ones alike. */
  hole(): void {
    this.swallowing = true;
    for (const socket of this.sockets) {
      if (!this.frozen.has(socket)) this.freeze(socket);
    }
  }

  /** Answers again: frozen connections are forwarded with everything they sent meanwhile. */
  answer(): void {
    this.swallowing = false;
    for (const [socket, pending] of [...this.frozen]) {
      this.frozen.delete(socket);
      socket.removeAllListeners('data');
      this.forward(socket, pending);
    }
  }

  /** Stops listening and drops every connection. */
  async close(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    for (const socket of this.sockets) socket.destroy();
    if (server) await new Promise((resolve) => server.close(resolve));
  }

  private freeze(client: net.Socket): void {
    const pending: Buffer[] = [];
    this.frozen.set(client, pending);
    const upstream = (client as SocketWithUpstream).upstream;
    if (upstream) {
      // Already forwarding: stop reading replies (they wait, like on a frozen server).
      client.unpipe(upstream);
      upstream.unpipe(client);
      upstream.pause();
    }
    client.on('data', (chunk: Buffer) => pending.push(chunk));
    client.resume();
  }

  private forward(client: net.Socket, pending: Buffer[]): void {
    let upstream = (client as SocketWithUpstream).upstream;
    if (!upstream) {
      upstream = net.connect(this.target.port, this.target.host);
      (client as SocketWithUpstream).upstream = upstream;
      this.sockets.add(upstream);
      upstream.once('close', () => {
        this.sockets.delete(upstream as net.Socket);
        client.destroy();
      });
      upstream.on('error', () => client.destroy());
      client.once('close', () => upstream?.destroy());
    }
    for (const chunk of pending) upstream.write(chunk);
    client.pipe(upstream);
    upstream.pipe(client);
    upstream.resume();
  }
}

type SocketWithUpstream = net.Socket & { upstream?: net.Socket };
