import { Injectable } from '@nestjs/common';
import { existsSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { openProjectIndex } from '../../../../libs/rag/src/index.js';
import { CliError, SilentExitError } from '../errors/cli.errors.js';
import { TerminalService } from '../services/terminal.service.js';
import { readIngestSettings, type IngestSettings } from './ingest-settings.js';
import { formatSummary, progressLine, type IngestTally } from './ingest-summary.js';
import { ingestInProcess } from './in-process-ingest.js';
import { lockLocalStore } from './local-store-lock.js';
import { reachableRedis } from './project-redis.js';
import { ingestThroughQueue } from './queue-ingest.js';

/** What `toolkit ingest` was asked. */
export interface IngestRequest {
  cwd: string;
  env: NodeJS.ProcessEnv;
  folder: string;
  wait: boolean;
  json: boolean;
}

/** Plain progress lines (no terminal) at most this often. */
const PLAIN_EVERY_MS = 2000;

/**
 * `toolkit ingest`: with Redis configured, queues the folder's files for `toolkit worker`s (and
 * with `--wait` follows them to the end, waiting out a Redis outage: the jobs stay queued);
 * without, ingests them in this process. Prints progress and a summary; exit 1 when a file
 * failed.
 */
@Injectable()
export class IngestService {
  constructor(private readonly terminal: TerminalService) {}

  async run(request: IngestRequest): Promise<void> {
    const path = resolve(request.cwd, request.folder);
    if (!existsSync(path)) throw new CliError(`folder not found: ${request.folder}`);
    if (!statSync(path).isDirectory()) throw new CliError(`not a folder: ${request.folder}`);
    if (!existsSync(join(request.cwd, 'toolkit.yaml'))) {
      throw new CliError('no toolkit.yaml here: run toolkit ingest in the project folder');
    }
    const settings = readIngestSettings(request.cwd, request.env);
    const onProgress = request.json ? undefined : this.progressPrinter();
    let tally: IngestTally;
    if (settings.redisUrl !== undefined) {
      const redisUrl = await reachableRedis(settings);
      const result = await ingestThroughQueue({
        folder: request.folder,
        path,
        redisUrl,
        queue: settings.queue,
        wait: request.wait,
        onProgress,
        onConnectionLost: (reason) => {
          if (onProgress) this.terminal.endStatus();
          this.terminal.warn(
            `${reason}; waiting for it to come back (the jobs stay queued; Ctrl+C stops following them, not the workers)`,
          );
        },
        onConnectionRestored: () => this.terminal.info('Redis is back: following the jobs again'),
        onNoWorker: () => {
          if (onProgress) this.terminal.endStatus();
          this.terminal.warn(
            `no toolkit worker is taking jobs from ${settings.queue}; start one with: toolkit worker`,
          );
        },
      });
      if (!request.wait) {
        this.queuedOnly(request.json, settings.queue, result.queued, result.known);
        return;
      }
      tally = result.tally;
    } else {
      tally = await this.inProcess(request, settings, path, onProgress);
    }
    if (onProgress) this.terminal.endStatus();
    const summary = tally.summary();
    if (request.json) this.terminal.info(JSON.stringify(summary));
    else for (const line of formatSummary(summary)) this.terminal.info(line);
    if (summary.failed > 0) throw new SilentExitError(1);
  }

  /** Ingests in this process, holding the local store (if that is the store) meanwhile. */
  private async inProcess(
    request: IngestRequest,
    settings: IngestSettings,
    path: string,
    onProgress: ((tally: IngestTally) => void) | undefined,
  ): Promise<IngestTally> {
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
        return await ingestInProcess({
          folder: request.folder,
          path,
          target: project.index,
          onProgress,
        });
      } finally {
        await project.close();
      }
    } finally {
      release();
    }
  }

  /** Without `--wait`: what was queued, and what processes it. */
  private queuedOnly(json: boolean, queue: string, queued: number, known: number): void {
    if (json) {
      this.terminal.info(JSON.stringify({ mode: 'queue', queue, queued, known }));
      return;
    }
    this.terminal.info(
      `Queued ${queued} files on ${queue} (${known} already queued or done); ` +
        'toolkit worker processes them, toolkit ingest --wait follows them to the end',
    );
  }

  /** Redraws a bar on a terminal; otherwise prints a line every couple of seconds. */
  private progressPrinter(): (tally: IngestTally) => void {
    const bar = this.terminal.interactive;
    let last = 0;
    return (tally) => {
      const now = Date.now();
      if (!bar && now - last < PLAIN_EVERY_MS) return;
      last = now;
      this.terminal.status(progressLine(tally, bar));
    };
  }
}
