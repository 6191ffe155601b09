import { Controller, Inject } from '@nestjs/common';
import { Route } from '../routing/route.decorator.js';
import { APP_INFO } from '../toolkit.constants.js';
import type { AppInfo } from './app-info.js';

/**
 * `GET /health` → `{ status: "healthy", version }`, for load balancers and deploy health checks.
 * Add it to an app's controllers.
 *
 * @example
 * export const app = new App({ version: '1.2.0', controllers: [HealthController, ChatController] });
 */
@Controller()
export class HealthController {
  constructor(@Inject(APP_INFO) private readonly info: AppInfo) {}

  @Route('/health', { methods: ['GET'], summary: 'Liveness check' })
  health(): { status: 'healthy'; version: string } {
    return { status: 'healthy', version: this.info.version };
  }
}
