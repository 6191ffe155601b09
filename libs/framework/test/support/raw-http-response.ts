import { connect, type Socket } from 'node:net';

/**
 * An HTTP/1.1 response read off a raw socket, so a test sees the body as the server framed it:
 * each chunk of a `Transfer-Encoding: chunked` body on its own (Node's client joins them), or the
 * whole body of a `Content-Length` one.
 */
export class RawHttpResponse {
  /** The status line and headers, once they arrived. */
  head?: string;
  private received = Buffer.alloc(0);
  private readonly chunks: string[] = [];
  private finished = false;
  private wake?: () => void;

  private constructor(private readonly socket: Socket) {
    socket.on('data', (data: Buffer) => {
      this.received = Buffer.concat([this.received, data]);
      this.parse();
      this.notify();
    });
    socket.on('close', () => {
      this.finished = true;
      this.notify();
    });
  }

  /** Sends `POST path` with an empty JSON object and `Connection: close`. */
  static post(host: string, port: number, path: string): RawHttpResponse {
    const socket = connect(port, host);
    socket.write(
      `POST ${path} HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\n` +
        'Content-Length: 2\r\nConnection: close\r\n\r\n{}',
    );
    return new RawHttpResponse(socket);
  }

  /** The next body chunk, waiting for it; `undefined` once the body is over. */
  async next(): Promise<string | undefined> {
    while (this.chunks.length === 0 && !this.finished) {
      await new Promise<void>((resolve) => (this.wake = resolve));
    }
    return this.chunks.shift();
  }

  /** Every chunk left, until the body is over. */
  async rest(): Promise<string[]> {
    const chunks: string[] = [];
    for (let chunk = await this.next(); chunk !== undefined; chunk = await this.next()) {
      chunks.push(chunk);
    }
    return chunks;
  }

  private notify(): void {
    this.wake?.();
    this.wake = undefined;
  }

  private parse(): void {
    if (this.head === undefined) {
      const end = this.received.indexOf('\r\n\r\n');
      if (end < 0) return;
      this.head = this.received.subarray(0, end).toString('latin1');
      this.received = this.received.subarray(end + 4);
    }
    const length = /^content-length: *(\d+)/im.exec(this.head);
    if (length) {
      if (this.received.length < Number(length[1])) return;
      this.chunks.push(this.received.toString('utf8'));
      this.end();
      return;
    }
    for (;;) {
      const line = this.received.indexOf('\r\n');
      if (line < 0) return;
      const size = Number.parseInt(this.received.subarray(0, line).toString('latin1'), 16);
      if (this.received.length < line + 2 + size + 2) return;
      if (size === 0) {
        this.end();
        return;
      }
      this.chunks.push(this.received.subarray(line + 2, line + 2 + size).toString('utf8'));
      this.received = this.received.subarray(line + 2 + size + 2);
    }
  }

  private end(): void {
    this.finished = true;
    this.received = Buffer.alloc(0);
    this.socket.destroy();
  }
}
