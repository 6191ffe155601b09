import { STATUS_CODES, type Server } from 'node:http';
import type { Duplex } from 'node:stream';

/** How long a refused connection may go on sending before it is closed. */
const LINGER_MS = 500;

/**
 * Answers requests Node's parser refuses (headers too large: 431; a request that timed out: 408;
 * anything else malformed: 400) with a JSON `{ error }` and a graceful close: what the client is
 * still sending is read and dropped for a moment, so it reads the answer instead of a reset
 * connection (Node 24's default handler resets a client still sending oversized headers).
 * It replaces the platform's own handler (Fastify installs one), so both platforms answer alike.
 */
export function answerClientErrors(server: Server): void {
  server.removeAllListeners('clientError');
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    if (error.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const status =
      error.code === 'HPE_HEADER_OVERFLOW'
        ? 431
        : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
          ? 408
          : 400;
    const body = JSON.stringify({ error: STATUS_CODES[status] ?? 'Bad Request' });
    socket.end(
      `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}\r\nConnection: close\r\n` +
        `Content-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
    socket.on('error', () => undefined);
    socket.resume();
    setTimeout(() => socket.destroy(), LINGER_MS).unref();
  });
}
