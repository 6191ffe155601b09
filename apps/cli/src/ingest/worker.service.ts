import { Injectable } from '@nestjs/common';
import { resolve } from 'node:path';
import {
  openProjectIndex,
  IngestionWorker,
  type IngestionTarget,
} from '../../../../libs/rag/src/index.js';
import { redactUrl } from '../doctor/doctor-check.js';
import { TerminalService } from '../services/terminal.service.js';
import { readIngestSettings } from './ingest-settings.js';
import { lockLocalStore } from './local-store-lock.js';
import { reachableRedis } from './project-redis.js';

/** What `toolkit worker` was asked. */
export interface WorkerRequest {
  cwd: string;
  env: NodeJS.ProcessEnv;
  concurrency: number;
}

/**
 * `toolkit worker`: takes the project's ingestion jobs from Redis into its index, one line per
 * finished or failed file, until SIGINT/SIGTERM; then it finishes the files in hand (a second
 * signal leaves them to another worker) and exits. When Redis goes away it says so once, keeps
 * reconnecting, and says when it is back; it never exits for that.
 */
@Injectable()
export class WorkerService {
  constructor(private readonly terminal: TerminalService) {}

  async run(request: WorkerRequest): Promise<void> {
    const settings = readIngestSettings(request.cwd, request.env);
    const redisUrl = await reachableRedis(settings);
    const release =
      settings.rag.store === 'local'
        ? lockLocalStore(resolve(request.cwd, settings.rag.index_dir))
        : () => undefined;
    try {
      const project = await openProjectIndex(settings.config, {
        cwd: request.cwd,
        env: request.env,
      });
      try {
        await this.work(project.index, redisUrl, settings.queue, request.concurrency);
      } finally {
        await project.close();
      }
    } finally {
      release();
    }
  }

  private async work(
    target: IngestionTarget,
    redisUrl: string,
    queue: string,
    concurrency: number,
  ): Promise<void> {
    const worker = await IngestionWorker.start({
      redisUrl,
      name: queue,
      target,
      concurrency,
      onCompleted: (file, outcome) =>
        this.terminal.info(
          (outcome.created
            ? `added     ${file} (${outcome.chunks} chunks)`
            : `unchanged ${file} (already indexed)`) +
            (outcome.changedSinceQueued ? ', changed since it was queued: its content now' : ''),
        ),
      onFailed: (file, reason, willRetry) =>
        this.terminal.info(`${willRetry ? 'retrying' : 'failed   '} ${file}: ${reason}`),
      onConnectionLost: (reason) =>
        this.terminal.warn(
          `${reason}; reconnecting (queued files stay queued, files in hand are recorded once it is back)`,
        ),
      onConnectionRestored: () => this.terminal.info('Redis is back: taking jobs again'),
      onError: (message) => this.terminal.warn(`queue: ${message}`),
    });
    this.terminal.info(
      `Worker ready: queue ${queue} on ${redactUrl(redisUrl)}, ${concurrency} at a time (Ctrl+C to stop)`,
    );
    const signal = await new Promise<NodeJS.Signals>((done) => {
      process.once('SIGINT', done);
      process.once('SIGTERM', done);
    });
    this.terminal.info(
      `${signal}: finishing the files in hand (again to leave them to another worker)`,
    );
    const force = new Promise<void>((done) => {
      const leave = (): void => {
        this.terminal.info('Leaving the files in hand to another worker');
        void worker.close(true).then(done, done);
      };
      process.once('SIGINT', leave);
      process.once('SIGTERM', leave);
    });
    await Promise.race([worker.close(), force]);
    this.terminal.info('Worker stopped');
  }
}
