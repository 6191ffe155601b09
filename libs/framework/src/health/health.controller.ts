import { Controller, Inject } from '@nestjs/common';
import { CacheStore, MemoryStore } from '../../../providers/src/index.js';
import { ToolkitError } from '../../../providers/src/internal.js';
import type { ToolkitConfig } from '../config/toolkit-config.interface.js';
import { Route } from '../routing/route.decorator.js';
import { APP_INFO, TOOLKIT_CONFIG } from '../toolkit.constants.js';
import type { AppInfo } from './app-info.js';
import { checkReadiness, type ReadinessReport } from './readiness.js';

/**
 * `GET /health` → `{ status: "healthy", version }`: liveness, answered without touching any
 * backend (for restart decisions). `GET /health/ready` → `{ status: "ready", backends }`:
 * readiness, pinging each configured backend (memory; cache when enabled) and answering 503 with
 * `status: "unavailable"` while one is down, so a load balancer stops sending traffic.
 * Add it to an app's controllers.
 *
 * @example
 * export const app = new App({ version: '1.2.0', controllers: [HealthController, ChatController] });
 */
@Controller()
export class HealthController {
  constructor(
    @Inject(APP_INFO) private readonly info: AppInfo,
    @Inject(TOOLKIT_CONFIG) private readonly config: ToolkitConfig,
    @Inject(MemoryStore) private readonly memory: MemoryStore,
    @Inject(CacheStore) private readonly cache: CacheStore,
  ) {}

  @Route('/health', { methods: ['GET'], summary: 'Liveness check' })
  health(): { status: 'healthy'; version: string } {
    return { status: 'healthy', version: this.info.version };
  }

  @Route('/health/ready', { methods: ['GET'], summary: 'Readiness check (each backend)' })
  async ready(): Promise<ReadinessReport> {
    const report = await checkReadiness({
      memory: this.memory,
      cache: this.config.cache.enabled ? this.cache : undefined,
    });
    if (report.status === 'ready') return report;
    const down = Object.entries(report.backends)
      .filter(([, b]) => b.status === 'down')
      .map(([role, b]) => `${role} (${b.backend})`);
    throw new ToolkitError(`Not ready: ${down.join(', ')} unavailable`, {
      statusCode: 503,
      isRetryable: true,
      headers: { 'Retry-After': '1' },
      body: { ...report },
    });
  }
}
