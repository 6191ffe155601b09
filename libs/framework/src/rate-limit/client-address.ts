/** What {@link clientAddress} reads of a request: Express's, Fastify's or Node's. */
export interface AddressedRequest {
  /** Express and Fastify: the client's address (with `app.trust_proxy`, from X-Forwarded-For). */
  ip?: string;
  socket?: { remoteAddress?: string };
  raw?: { socket?: { remoteAddress?: string } };
}

/**
 * The address a request came from, for per-address limits: the platform's `req.ip` (which
 * honours a trusted proxy), else the socket's peer; `unknown` when neither is known.
 */
export function clientAddress(req: AddressedRequest): string {
  return req.ip ?? req.socket?.remoteAddress ?? req.raw?.socket?.remoteAddress ?? 'unknown';
}
