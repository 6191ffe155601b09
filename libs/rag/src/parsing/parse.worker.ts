/**
 * A parser worker thread (started by `ParserPool`): takes `{ id, job }` messages, answers
 * `{ id, outcome }` or `{ id, error }`, one job at a time. It says `{ ready: true }` once its
 * modules are loaded, so the time budget of a job does not count the worker's start.
 */
import { parentPort } from 'node:worker_threads';
import { parseDocument, type ParseJob } from './parse-job.js';
import { serializeError } from './worker-error.js';

/** A message from the pool. */
export interface ParseRequest {
  id: number;
  job: ParseJob;
}

const port = parentPort;
if (!port) throw new Error('parse.worker.js runs as a worker thread of ParserPool');

port.on('message', (request: ParseRequest) => {
  parseDocument(request.job).then(
    (outcome) =>
      port.postMessage(
        { id: request.id, outcome },
        outcome.vectors ? [outcome.vectors.buffer as ArrayBuffer] : [],
      ),
    (error: unknown) => port.postMessage({ id: request.id, error: serializeError(error) }),
  );
});
port.postMessage({ ready: true });
