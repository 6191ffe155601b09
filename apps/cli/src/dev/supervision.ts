import { fork, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { SERVE_APP_PATH } from '../runtime/runtime-paths.js';
import { isServeMessage, type ServeMessage } from '../runtime/served-app.js';
import type { TerminalService } from '../services/terminal.service.js';
import type { SuperviseOptions } from './app-supervisor.service.js';
import { hostForUrl } from './host-url.js';
import { formatLlmRequest } from './llm-request-line.js';
import { SourceWatcher } from './source-watcher.js';

/**
 * One `AppSupervisorService.serve()` call: the current child, the watcher and the signal
 * handlers. Restarts are queued so two quick saves never run two servers at once.
 */
export class Supervision {
  private child: ChildProcess | undefined;
  private readonly expectedExits = new WeakSet<ChildProcess>();
  private watcher: SourceWatcher | undefined;
  private restarts: Promise<void> = Promise.resolve();
  private stopping = false;
  /** How long the app said its shutdown may take (open streams' grace period). */
  private shutdownGraceMs = 0;
  private finish: (code: number) => void = () => undefined;

  constructor(
    private readonly options: SuperviseOptions,
    private readonly terminal: TerminalService,
  ) {}

  run(): Promise<number> {
    return new Promise<number>((resolve) => {
      this.finish = (code) => {
        process.off('SIGINT', this.onSignal);
        process.off('SIGTERM', this.onSignal);
        this.watcher?.close();
        resolve(code);
      };
      process.on('SIGINT', this.onSignal);
      process.on('SIGTERM', this.onSignal);
      if (this.options.reload) {
        this.watcher = new SourceWatcher({
          root: this.options.cwd,
          // Prompt files (`prompts/*.hbs`) are read once per process: editing one restarts too.
          extensions: ['.ts', '.mts', '.cts', '.tsx', '.hbs'],
          onChange: (files) => this.onChange(files),
        });
        this.watcher.start();
      }
      this.spawn();
    });
  }

  private spawn(): void {
    const { appFile, exportName, host, port, cwd, env, reload } = this.options;
    const startedAt = Date.now();
    const childEnv = { ...(env ?? process.env) };
    // A restart on save ends open streams at once instead of waiting out their grace period.
    if (reload) childEnv.TOOLKIT_APP_SHUTDOWN_GRACE ??= '0';
    const child = fork(SERVE_APP_PATH, [appFile, exportName, host, String(port)], {
      cwd,
      env: childEnv,
      execArgv: ['--enable-source-maps'],
      stdio: ['inherit', 'inherit', 'inherit', 'ipc'],
    });
    this.child = child;
    child.on('message', (message) => {
      if (isServeMessage(message)) this.onMessage(message, Date.now() - startedAt);
    });
    child.on('error', (error) =>
      this.terminal.error(`cannot start the app process: ${error.message}`),
    );
    child.on('exit', (code, signal) => this.onExit(child, code, signal));
  }

  private onMessage(message: ServeMessage, elapsedMs: number): void {
    if (message.type === 'llm-request') {
      this.terminal.info(formatLlmRequest(message));
      return;
    }
    if (message.type !== 'listening') return;
    this.shutdownGraceMs = message.shutdownGraceMs ?? 0;
    const name = [message.title, message.version ? `v${message.version}` : undefined]
      .filter(Boolean)
      .join(' ');
    const url = `http://${hostForUrl(this.options.host)}:${this.options.port}`;
    this.terminal.success(
      `Serving ${name || 'the app'} at ${url} (server process ${message.pid}, ready in ${elapsedMs} ms)`,
    );
  }

  private onExit(child: ChildProcess, code: number | null, signal: NodeJS.Signals | null): void {
    if (this.child === child) this.child = undefined;
    if (this.expectedExits.has(child) || this.stopping) return;
    const how = signal ? `was killed by ${signal}` : `exited with code ${code}`;
    if (this.options.reload) {
      this.terminal.warn(`the app ${how}; fix the error and save a file to restart.`);
      return;
    }
    this.finish(code ?? 1);
  }

  private onChange(files: string[]): void {
    if (this.stopping) return;
    this.restarts = this.restarts.then(async () => {
      if (this.stopping) return;
      const shown =
        files.length > 3
          ? `${files.slice(0, 3).join(', ')} and ${files.length - 3} more`
          : files.join(', ');
      this.terminal.info(`Change detected in ${shown}; restarting...`);
      await this.stopChild();
      if (!this.stopping) this.spawn();
    });
  }

  private readonly onSignal = (): void => {
    if (this.stopping) return;
    this.stopping = true;
    this.watcher?.close();
    void this.restarts
      .then(() => this.stopChild())
      .then(() => {
        this.terminal.info('Stopped.');
        this.finish(0);
      });
  };

  private async stopChild(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    this.expectedExits.add(child);
    const exited = once(child, 'exit');
    child.kill('SIGTERM');
    // Past the app's own grace period (and time to close its backends), it is stuck.
    const limit = (this.options.killAfterMs ?? 5000) + this.shutdownGraceMs;
    const killer = setTimeout(() => child.kill('SIGKILL'), limit);
    await exited;
    clearTimeout(killer);
  }
}
