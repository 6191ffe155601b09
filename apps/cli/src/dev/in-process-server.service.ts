import { Injectable } from '@nestjs/common';
import { REGISTER_URL } from '../runtime/runtime-paths.js';
import { loadServedApp, prepareTypeScript, shutdownGraceOf } from '../runtime/load-served-app.js';
import { AppLoadError } from '../runtime/app-load.error.js';
import type { ServableApp } from '../runtime/served-app.js';
import { TerminalService } from '../services/terminal.service.js';
import type { SuperviseOptions } from './app-supervisor.service.js';
import { hostForUrl } from './host-url.js';

/**
 * Serves the user's app inside the CLI's own process, for `toolkit start`: no watcher means no
 * reason for a child, and one process loads Nest once instead of twice (the CLI's copy is the one
 * the app's `toolkit` uses), which halves the time to the first answer. SIGINT or SIGTERM closes
 * the app (open streams get its grace period) and resolves 0; a close that hangs past the grace
 * period plus `killAfterMs` resolves 1.
 *
 * @example
 * const code = await server.serve({ cwd, appFile, exportName: 'app', host, port, reload: false });
 */
@Injectable()
export class InProcessServerService {
  constructor(private readonly terminal: TerminalService) {}

  async serve(options: SuperviseOptions): Promise<number> {
    const startedAt = Date.now();
    adoptEnvironment(options.env);
    if (process.cwd() !== options.cwd) process.chdir(options.cwd);
    await prepareTypeScript(options.cwd, REGISTER_URL);
    let app: ServableApp;
    try {
      app = await loadServedApp(options.appFile, options.exportName);
    } catch (error) {
      if (!(error instanceof AppLoadError)) throw error;
      this.terminal.error(error.message);
      return 1;
    }
    const stopped = this.untilSignal();
    try {
      await app.run({ host: options.host, port: options.port, announce: false });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      this.terminal.error(`the app did not start: ${message}`);
      // Whatever it opened before failing (backend connections) must not keep the process alive.
      await app.close().catch(() => undefined);
      return 1;
    }
    const name = [app.title, app.version ? `v${app.version}` : undefined].filter(Boolean).join(' ');
    const url = `http://${hostForUrl(options.host)}:${options.port}`;
    this.terminal.success(
      `Serving ${name || 'the app'} at ${url} (server process ${process.pid}, ready in ${Date.now() - startedAt} ms)`,
    );
    await stopped;
    return this.close(app, (options.killAfterMs ?? 5000) + (await shutdownGraceOf(app)));
  }

  private untilSignal(): Promise<void> {
    return new Promise((resolve) => {
      const onSignal = (): void => {
        process.off('SIGINT', onSignal);
        process.off('SIGTERM', onSignal);
        resolve();
      };
      process.on('SIGINT', onSignal);
      process.on('SIGTERM', onSignal);
    });
  }

  private async close(app: ServableApp, limitMs: number): Promise<number> {
    let timer: NodeJS.Timeout | undefined;
    const hung = new Promise<'hung'>((resolve) => {
      timer = setTimeout(() => resolve('hung'), limitMs);
      timer.unref();
    });
    try {
      const outcome = await Promise.race([app.close().then(() => 'closed' as const), hung]);
      if (outcome === 'hung') {
        this.terminal.error(`the app did not close within ${limitMs} ms; stopping anyway`);
        return 1;
      }
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      this.terminal.error(`Error while closing: ${message}`);
    } finally {
      clearTimeout(timer);
    }
    this.terminal.info('Stopped.');
    return 0;
  }
}

/** Gives the process the variables the serve request adds (e.g. `NODE_ENV=production`). */
function adoptEnvironment(env: NodeJS.ProcessEnv | undefined): void {
  if (env === undefined || env === process.env) return;
  for (const [key, value] of Object.entries(env)) {
    if (value !== undefined && process.env[key] === undefined) process.env[key] = value;
  }
}
