import type { INestApplication } from '@nestjs/common';
import type { ToolkitConfig } from '../config/toolkit-config.interface.js';
import { installBodyParsers } from '../http/body-parsers.js';
import { TOOLKIT_CONFIG } from '../toolkit.constants.js';

/**
 * The application-level set-up `App` and `createTestingApp` share: toolkit's body parsers (with
 * `app.body_limit`). Call before `init()`, on an app created with `{ bodyParser: false }`.
 */
export function configureNestApp(nest: INestApplication): void {
  const config = nest.get<ToolkitConfig>(TOOLKIT_CONFIG);
  installBodyParsers(nest, config.app.body_limit);
}
