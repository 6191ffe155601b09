import type { INestApplication } from '@nestjs/common';
import type { ToolkitConfig } from '../config/toolkit-config.interface.js';
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
 * `trustProxy` when its adapter is created). Call before `init()`, on an app created with
 * `{ bodyParser: false }`, on Express or Fastify.
 */
export function configureNestApp(
  nest: INestApplication,
  { linkResponses = true }: ConfigureAppOptions = {},
): void {
  const config = nest.get<ToolkitConfig>(TOOLKIT_CONFIG);
  const platform = platformOf(nest.getHttpAdapter());
  if (linkResponses) platform.linkResponses(nest);
  platform.installBodyParsers(nest, config.app.body_limit);
  if (config.app.trust_proxy) platform.trustProxy(nest);
}
