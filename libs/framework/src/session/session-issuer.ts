import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { TLSSocket } from 'node:tls';

/** Name of the cookie that carries the session id. */
export const SESSION_COOKIE = 'toolkit_session';

/** Bytes of randomness in a session id (192 bits). */
const ID_BYTES = 24;
/** `<id>.<mac>`: 32 base64url characters, a dot, 43 base64url characters (HMAC-SHA256). */
const COOKIE_VALUE = /^([A-Za-z0-9_-]{32})\.([A-Za-z0-9_-]{43})$/;
/** A year: the browser keeps the conversation until the user clears it. */
const MAX_AGE_SECONDS = 365 * 24 * 60 * 60;

/** What {@link SessionIssuer} needs from the configuration. */
export interface SessionIssuerOptions {
  /**
   * Key that signs session cookies. Empty: a random key per process (sessions end when the
   * process restarts, and several instances do not recognise each other's cookies).
   */
  secret: string;
  /** Trust `X-Forwarded-Proto` from a proxy in front of the app to decide on `Secure`. */
  trustProxy: boolean;
}

type SessionCarrier = IncomingMessage & { [SESSION_ID]?: string };
const SESSION_ID = Symbol('toolkit.session');

/**
 * Issues and recognises session cookies: a random id signed with HMAC-SHA256, in an `HttpOnly`,
 * `SameSite=Lax` cookie (`Secure` when the request came over https). A missing, forged, malformed
 * or oversized cookie gets a fresh session and a new cookie; it never fails the request.
 */
export class SessionIssuer {
  private readonly key: Buffer;

  constructor(private readonly options: SessionIssuerOptions) {
    this.key = options.secret === '' ? randomBytes(32) : Buffer.from(options.secret, 'utf8');
  }

  /**
   * The session id of a request: the one its valid cookie names, otherwise a new one, whose
   * cookie is set on the response. The same request always gets the same id.
   */
  sessionOf(req: IncomingMessage, res: ServerResponse): string {
    const carrier = req as SessionCarrier;
    const known = carrier[SESSION_ID] ?? this.verified(req);
    if (known !== undefined) return (carrier[SESSION_ID] = known);
    const id = randomBytes(ID_BYTES).toString('base64url');
    carrier[SESSION_ID] = id;
    appendSetCookie(res, this.cookie(id, this.isHttps(req)));
    return id;
  }

  /** The id of a request's cookie when its signature holds. */
  private verified(req: IncomingMessage): string | undefined {
    for (const value of cookieValues(req.headers.cookie, SESSION_COOKIE)) {
      const match = COOKIE_VALUE.exec(value);
      if (match === null) continue;
      const expected = Buffer.from(this.mac(match[1]), 'utf8');
      const presented = Buffer.from(match[2], 'utf8');
      if (timingSafeEqual(expected, presented)) return match[1];
    }
    return undefined;
  }

  private mac(id: string): string {
    return createHmac('sha256', this.key).update(id).digest('base64url');
  }

  private cookie(id: string, secure: boolean): string {
    const attributes = [`Path=/`, `Max-Age=${MAX_AGE_SECONDS}`, 'HttpOnly', 'SameSite=Lax'];
    if (secure) attributes.push('Secure');
    return [`${SESSION_COOKIE}=${id}.${this.mac(id)}`, ...attributes].join('; ');
  }

  /** https directly, or (with `trust_proxy`) as the proxy in front says. */
  private isHttps(req: IncomingMessage): boolean {
    if ((req.socket as Partial<TLSSocket>).encrypted === true) return true;
    if (!this.options.trustProxy) return false;
    const forwarded = req.headers['x-forwarded-proto'];
    const first = (Array.isArray(forwarded) ? forwarded[0] : forwarded)?.split(',')[0];
    return first?.trim().toLowerCase() === 'https';
  }
}

/** Largest Cookie header read (browsers send at most a few KB); the rest is ignored. */
const MAX_COOKIE_HEADER = 8192;

/** Every value of cookie `name` in a Cookie header, in order. */
function cookieValues(header: string | undefined, name: string): string[] {
  if (header === undefined) return [];
  const values: string[] = [];
  for (const pair of header.slice(0, MAX_COOKIE_HEADER).split(';')) {
    const eq = pair.indexOf('=');
    if (eq !== -1 && pair.slice(0, eq).trim() === name) values.push(pair.slice(eq + 1).trim());
  }
  return values;
}

function appendSetCookie(res: ServerResponse, cookie: string): void {
  if (res.headersSent) return;
  const current = res.getHeader('set-cookie');
  const list = current === undefined ? [] : Array.isArray(current) ? current : [String(current)];
  res.setHeader('set-cookie', [...list, cookie]);
}
