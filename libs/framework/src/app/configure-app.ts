import type { INestApplication } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { ToolkitConfig } from '../config/toolkit-config.interface.js';
import { SECURITY_HEADERS } from '../http/page-security-policy.js';
import { PageSecurityInterceptor } from '../http/page-security.interceptor.js';
import { platformOf } from '../http/platform/platform-of.js';
import { trackRequests } from '../logging/request-tracking.js';
import { TOOLKIT_CONFIG } from '../toolkit.constants.js';

/** Options of {@link configureNestApp}. */
export interface ConfigureAppOptions {
  /**
   * Link each request to its response, which `app.route` handlers read (on Fastify a hook on
   * every request, so only apps with such routes ask for it). @default true
   */
  linkResponses?: boolean;
}

/**
 * The application-level set-up `App` and `createTestingApp` share: a request id on every answer
 * (`X-Request-Id`, in every log line written during the request, and the access log line of
 * `app.access_log`: see `trackRequests`), each request linked to its
 * response (what `app.route` handlers get), toolkit's body parsers (with
 * `app.body_limit`), and, when `app.trust_proxy` is on, Express's `trust proxy` (so `req.ip`,
 * `req.protocol` and `req.secure` come from the proxy's `X-Forwarded-*` headers; Fastify takes
 * `trustProxy` when its adapter is created), security headers on every answer
 * (`X-Content-Type-Options: nosniff`, `X-Frame-Options: DENY`, no `X-Powered-By`) and a
 * Content-Security-Policy on the HTML pages routes return (`PageSecurityInterceptor`). Call
 * before `init()`, on an app created with `{ bodyParser: false }`, on Express or Fastify.
 */
export function configureNestApp(
  nest: INestApplication,
  { linkResponses = true }: ConfigureAppOptions = {},
): void {
  const config = nest.get<ToolkitConfig>(TOOLKIT_CONFIG);
  const platform = platformOf(nest.getHttpAdapter());
  // First of all: every answer has an id, and the whole request runs in its context.
  const instance = nest.getHttpAdapter().getInstance() as object;
  const afterBodies = trackRequests(instance, platform, config.app);
  if (linkResponses) platform.linkResponses(nest);
  // First, so that answers of the body parsers carry them too.
  platform.installSecurityHeaders(nest, SECURITY_HEADERS);
  platform.installBodyParsers(nest, config.app.body_limit);
  afterBodies?.();
  if (config.app.trust_proxy) platform.trustProxy(nest);
  nest.useGlobalInterceptors(new PageSecurityInterceptor(new Reflector()));
}
