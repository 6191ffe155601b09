import type { INestApplication } from '@nestjs/common';
import type { ToolkitConfig } from '../config/toolkit-config.interface.js';
import { installBodyParsers } from '../http/body-parsers.js';
import { TOOLKIT_CONFIG } from '../toolkit.constants.js';

/**
 * The application-level set-up `App` and `createTestingApp` share: toolkit's body parsers (with
 * `app.body_limit`), and Express's `trust proxy` when `app.trust_proxy` is on (so `req.ip`,
 * `req.protocol` and `req.secure` come from the proxy's `X-Forwarded-*` headers). Call before
 * `init()`, on an app created with `{ bodyParser: false }`.
 */
export function configureNestApp(nest: INestApplication): void {
  const config = nest.get<ToolkitConfig>(TOOLKIT_CONFIG);
  installBodyParsers(nest, config.app.body_limit);
  if (config.app.trust_proxy) {
    (nest.getHttpAdapter().getInstance() as { set(name: string, value: unknown): void }).set(
      'trust proxy',
      true,
    );
  }
}
