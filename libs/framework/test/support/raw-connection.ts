import { connect, type Socket } from 'node:net';

/** One answer read off a raw connection: its status and body (`Content-Length` framed). */
export interface RawAnswer {
  status: number;
  body: string;
}

/**
 * A client connection on a raw socket, for tests of connection handling: it can send a request
 * byte by byte, keep the connection alive across requests, come from another loopback address
 * (`from: '127.0.0.2'`), and tell whether (and when) the server closed it.
 */
export class RawConnection {
  /** Resolves once the connection is closed, by either side. */
  readonly closed: Promise<void>;
  private received = Buffer.alloc(0);
  private wake?: () => void;
  private ended = false;

  private constructor(readonly socket: Socket) {
    socket.on('error', () => undefined);
    socket.on('data', (data: Buffer) => {
      this.received = Buffer.concat([this.received, data]);
      this.notify();
    });
    this.closed = new Promise((resolve) =>
      socket.once('close', () => {
        this.ended = true;
        this.notify();
        resolve();
      }),
    );
  }

  /** Connects to `port` on 127.0.0.1, from the loopback address `from`; resolves once connected. */
  static open(port: number, from = '127.0.0.1'): Promise<RawConnection> {
    return new Promise((resolve, reject) => {
      const socket = connect({ port, host: '127.0.0.1', localAddress: from });
      socket.once('connect', () => resolve(new RawConnection(socket)));
      socket.once('error', reject);
    });
  }

  /** True once the server (or this side) closed the connection. */
  get isClosed(): boolean {
    return this.ended;
  }

  /** Writes raw bytes, unless the connection is closed. */
  write(data: string): void {
    if (!this.ended && this.socket.writable) this.socket.write(data);
  }

  /** Sends `GET path` on this connection (kept alive) and reads its answer. */
  async get(path: string): Promise<RawAnswer> {
    this.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
    return this.answer();
  }

  /**
   * The next answer on the connection, waiting for it; rejects if the connection closes first.
   */
  async answer(): Promise<RawAnswer> {
    for (;;) {
      const parsed = this.take();
      if (parsed) return parsed;
      if (this.ended) throw new Error('the connection closed before a complete answer');
      await new Promise<void>((resolve) => (this.wake = resolve));
    }
  }

  /** Closes the connection from this side. */
  close(): void {
    this.socket.destroy();
  }

  private take(): RawAnswer | undefined {
    const end = this.received.indexOf('\r\n\r\n');
    if (end < 0) return undefined;
    const head = this.received.subarray(0, end).toString('latin1');
    const length = Number(/^content-length: *(\d+)/im.exec(head)?.[1] ?? 0);
    if (this.received.length < end + 4 + length) return undefined;
    const body = this.received.subarray(end + 4, end + 4 + length).toString('utf8');
    this.received = this.received.subarray(end + 4 + length);
    return { status: Number(head.split(' ')[1]), body };
  }

  private notify(): void {
    this.wake?.();
    this.wake = undefined;
  }
}
