import {
  createParamDecorator,
  Inject,
  Injectable,
  Optional,
  type ExecutionContext,
  type PipeTransform,
} from '@nestjs/common';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { standaloneConfig } from '../config/config-defaults.js';
import type { ToolkitConfig } from '../config/toolkit-config.interface.js';
import { platformOfResponse } from '../http/platform/platform-of.js';
import { TOOLKIT_CONFIG } from '../toolkit.constants.js';
import { signalSafeFactory } from '../routing/request-signal.js';
import { SessionIssuer } from './session-issuer.js';

/** What the parameter factory hands the pipe: the exchange whose session is wanted. */
interface Exchange {
  req: IncomingMessage & { user?: unknown };
  res: ServerResponse;
}

/** One issuer per configuration: its key must be the same for every route of one app. */
const issuers = new WeakMap<ToolkitConfig, SessionIssuer>();

/**
 * Resolves `@Session()` with the app's configuration (`app.session_secret`, `app.trust_proxy`);
 * in a module without `ToolkitModule`, with the defaults (see `standaloneConfig`): a random key
 * per process.
 */
@Injectable()
export class SessionPipe implements PipeTransform<Exchange, string> {
  private readonly issuer: SessionIssuer;

  constructor(@Optional() @Inject(TOOLKIT_CONFIG) config: ToolkitConfig = standaloneConfig()) {
    let issuer = issuers.get(config);
    if (issuer === undefined) {
      issuer = new SessionIssuer({
        secret: config.app.session_secret,
        trustProxy: config.app.trust_proxy,
      });
      issuers.set(config, issuer);
    }
    this.issuer = issuer;
  }

  transform({ req, res }: Exchange): string {
    const userId = authenticatedUserId(req.user);
    return userId !== undefined ? `user:${userId}` : `session:${this.issuer.sessionOf(req, res)}`;
  }
}

/** `req.user.id` as set by an authentication guard (a non-empty string or a number). */
function authenticatedUserId(user: unknown): string | undefined {
  if (typeof user !== 'object' || user === null) return undefined;
  const id = (user as { id?: unknown }).id;
  if (typeof id === 'number' && Number.isFinite(id)) return String(id);
  return typeof id === 'string' && id !== '' ? id : undefined;
}

const exchange = createParamDecorator(
  signalSafeFactory((_data: unknown, ctx: ExecutionContext): Exchange => {
    const http = ctx.switchToHttp();
    const res = http.getResponse<object>();
    // The Node response: the cookie set there goes out with the platform's answer, or a stream's.
    return {
      req: http.getRequest<Exchange['req']>(),
      res: platformOfResponse(res).rawResponse(res),
    };
  }),
);

/**
 * Injects who is talking, as a string to scope conversations with: `user:<id>` when an
 * authentication guard has set `req.user = { id }`, otherwise `session:<id>`, a server-issued
 * session. The session id is random (192 bits), signed with `app.session_secret`, and kept in an
 * `HttpOnly`, `SameSite=Lax` cookie (`Secure` over https, or behind a proxy saying so with
 * `app.trust_proxy: true`) set on first contact. A missing, forged, malformed or oversized cookie
 * gets a fresh session: the request never fails and never sees someone else's conversation.
 *
 * @example
 * @Route('/chat', { methods: ['POST'] })
 * async chat(@Session() session: string, @Arg('message') message: string) {
 *   const memory = this.memory.for(session);
 *   // ...
 * }
 */
export const Session = (): ParameterDecorator => exchange(undefined, SessionPipe);
