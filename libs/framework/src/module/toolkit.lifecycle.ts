import {
  Inject,
  Injectable,
  type OnApplicationShutdown,
  type OnModuleDestroy,
  type OnModuleInit,
} from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { CacheStore, MemoryStore } from '../../../providers/src/index.js';
import type { ToolkitConfig } from '../config/toolkit-config.interface.js';
import type { AppInfo } from '../health/app-info.js';
import { platformOf } from '../http/platform/platform-of.js';
import { ResumableStreams } from '../sse/resumable-streams.js';
import { StreamRegistry } from '../sse/stream-registry.js';
import { runAppShutdownTasks } from '../telemetry/app-shutdown-tasks.js';
import { installHostTracingWhenOn } from '../telemetry/tracing-switch.js';
import { APP_INFO, TOOLKIT_CONFIG } from '../toolkit.constants.js';
import { checkNestVersion } from './nest-version.js';

/** How long stopped resumable producers get to store their interrupted turns. */
const PRODUCER_SETTLE_MS = 3000;

/**
 * Toolkit's part of the application's life: at start, warns when the application's Nest is
 * outside `SUPPORTED_NEST_RANGE` and fails fast on a platform toolkit does not support; at shutdown, gives open streams
 * `app.shutdown_grace` seconds, ends the rest, stops the resumable producers still running (their
 * `recordTurn` stores the answer so far, marked interrupted) and only then closes the memory and
 * cache backends, so no stream loses its backend mid-answer and no interrupted turn is lost.
 * With `telemetry` tracing on, it installs tracing in an application of the user's own at start
 * and flushes the last spans at the very end of shutdown.
 */
@Injectable()
export class ToolkitLifecycle implements OnModuleInit, OnModuleDestroy, OnApplicationShutdown {
  private closed?: Promise<void>;

  constructor(
    @Inject(TOOLKIT_CONFIG) private readonly config: ToolkitConfig,
    private readonly adapterHost: HttpAdapterHost,
    private readonly streams: StreamRegistry,
    private readonly resumables: ResumableStreams,
    @Inject(MemoryStore) private readonly memory: MemoryStore,
    @Inject(CacheStore) private readonly cache: CacheStore,
    @Inject(APP_INFO) private readonly appInfo: AppInfo,
  ) {}

  async onModuleInit(): Promise<void> {
    checkNestVersion(); // one warning line when the application's Nest is outside the range
    const adapter = this.adapterHost.httpAdapter;
    if (!adapter) return; // a module compiled without an HTTP application: nothing to serve
    platformOf(adapter); // throws for a platform other than Express and Fastify
    // `telemetry.enabled` in an application of the user's own (`App` has installed it already).
    await installHostTracingWhenOn(adapter, this.config, this.appInfo);
  }

  /** Streams first, backends after: see the class comment. */
  onModuleDestroy(): Promise<void> {
    this.closed ??= this.close();
    return this.closed;
  }

  /** A no-op when the module was destroyed first (the usual order); covers the other. */
  onApplicationShutdown(): Promise<void> {
    return this.onModuleDestroy();
  }

  private async close(): Promise<void> {
    await this.streams.drain(this.config.app.shutdown_grace * 1000);
    await this.resumables.stopProducers(PRODUCER_SETTLE_MS);
    await Promise.all([this.memory.close(), this.cache.close()]);
    // Last: the spans of everything above (tracing's flush) go out too.
    const adapter = this.adapterHost.httpAdapter as HttpAdapterHost['httpAdapter'] | undefined;
    if (adapter) await runAppShutdownTasks(adapter.getInstance<object>());
  }
}
