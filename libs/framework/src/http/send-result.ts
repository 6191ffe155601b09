import type { Response } from 'express';

/**
 * Writes a handler's return value: `[body, status]` → that status; a string → `text/plain`;
 * `undefined` → 204 (or the tuple's status with no body); a Buffer → `application/octet-stream`;
 * anything else → JSON. Does nothing when the handler already answered itself.
 */
export function sendResult(res: Response, result: unknown): void {
  if (res.headersSent || res.writableEnded) return;
  const [body, status] = splitTuple(result);
  if (body === undefined) {
    res.status(status ?? 204).end();
    return;
  }
  res.status(status ?? 200);
  if (typeof body === 'string') {
    if (!res.getHeader('Content-Type')) res.setHeader('Content-Type', 'text/plain; charset=utf-8');
    res.send(body);
  } else if (Buffer.isBuffer(body)) {
    if (!res.getHeader('Content-Type')) res.setHeader('Content-Type', 'application/octet-stream');
    res.send(body);
  } else {
    res.json(body);
  }
}

/** `[body, status]` with an integer HTTP status as second element, else the value itself. */
export function splitTuple(result: unknown): [unknown, number | undefined] {
  if (Array.isArray(result) && result.length === 2) {
    const status: unknown = result[1];
    if (typeof status === 'number' && Number.isInteger(status) && status >= 100 && status <= 599) {
      return [result[0], status];
    }
  }
  return [result, undefined];
}
