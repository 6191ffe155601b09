import type { INestApplication } from '@nestjs/common';
import type { ToolkitConfig } from '../config/toolkit-config.interface.js';
import { TOOLKIT_CONFIG } from '../toolkit.constants.js';

/**
 * Installs the metrics of `telemetry.metrics` on `nest` when they are on (`installMetrics`),
 * loading their code only then: an app without them pays nothing. Call after `configureNestApp`,
 * before `init()`.
 */
export async function installMetricsWhenOn(nest: INestApplication): Promise<void> {
  const { telemetry } = nest.get<ToolkitConfig>(TOOLKIT_CONFIG);
  if (!telemetry.metrics) return;
  const { installMetrics } = await import('./install-metrics.js');
  installMetrics(nest, telemetry);
}
