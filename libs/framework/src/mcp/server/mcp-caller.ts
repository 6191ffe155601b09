import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { SESSION_COOKIE } from '../../session/session-issuer.js';

/**
 * Who may cancel a call: the same stable identity that made it. An authenticated user
 * (`user:<id>`), or a session whose cookie the request carried; else the same `Authorization`
 * header (an API key client gets a fresh session per request, but presents the same key);
 * `undefined` for an anonymous request, whose calls only a closed connection cancels.
 */
export function mcpCallerKey(identity: string, req: IncomingMessage): string | undefined {
  if (identity.startsWith('user:')) return identity;
  if (req.headers.cookie?.includes(`${SESSION_COOKIE}=`) === true) return identity;
  const authorization = req.headers.authorization;
  if (authorization === undefined || authorization === '') return undefined;
  return `auth:${createHash('sha256').update(authorization).digest('base64url')}`;
}
