import type { INestApplication } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { ToolkitConfig } from '../config/toolkit-config.interface.js';
import { SECURITY_HEADERS } from '../http/page-security-policy.js';
import { PageSecurityInterceptor } from '../http/page-security.interceptor.js';
import { platformOf } from '../http/platform/platform-of.js';
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
 * The application-level set-up `App` and `createTestingApp` share: each request linked to its
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
  if (linkResponses) platform.linkResponses(nest);
  // First, so that answers of the body parsers carry them too.
  platform.installSecurityHeaders(nest, SECURITY_HEADERS);
  platform.installBodyParsers(nest, config.app.body_limit);
  if (config.app.trust_proxy) platform.trustProxy(nest);
  nest.useGlobalInterceptors(new PageSecurityInterceptor(new Reflector()));
}
