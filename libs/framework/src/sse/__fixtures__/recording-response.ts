import { EventEmitter } from 'node:events';
import type { ServerResponse } from 'node:http';

/**
 * Enough of a Node response for an `SseWriter`, for unit tests: records every write and the
 * end's chunk, and reports a full buffer (`write` false, `writableNeedDrain`) while `full` is set,
 * until {@link drain}.
 */
export class RecordingResponse extends EventEmitter {
  /** Chunks in the order they were handed over, the end's last. */
  readonly written: string[] = [];
  destroyed = false;
  writableEnded = false;
  statusCode = 0;
  /** The next writes report a full buffer. */
  full = false;
  private needDrain = false;
  private readonly headers = new Map<string, string>();

  get writableNeedDrain(): boolean {
    return this.needDrain;
  }

  getHeaderNames(): string[] {
    return [...this.headers.keys()];
  }

  setHeader(name: string, value: string): void {
    this.headers.set(name.toLowerCase(), value);
  }

  writeHead(status: number, list: string[]): this {
    this.statusCode = status;
    for (let i = 0; i < list.length; i += 2) this.setHeader(list[i], list[i + 1]);
    return this;
  }

  write(chunk: string): boolean {
    this.written.push(chunk);
    if (this.full) this.needDrain = true;
    return !this.full;
  }

  end(chunk?: string): void {
    if (chunk !== undefined) this.written.push(chunk);
    this.writableEnded = true;
  }

  /** The client read everything: `drain`, and writes succeed again. */
  drain(): void {
    this.full = false;
    this.needDrain = false;
    this.emit('drain');
  }

  /** As the writer sees it. */
  asResponse(): ServerResponse {
    return this as unknown as ServerResponse;
  }
}
