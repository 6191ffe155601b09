/**
 * Entry of the child process that serves the user's app for `toolkit dev`, spawned as
 * `node serve-app.js <file> <export> <host> <port>`. Loads the framework, registers the
 * TypeScript loader (in that order: see `prepareTypeScript`), imports the module,
 * runs the exported app, tells the parent once it listens and after each request that called an
 * LLM (its model, tokens, cost and time to first token, which `toolkit dev` prints), and closes it
 * on SIGINT, SIGTERM or when the parent goes away, so no server outlives the CLI.
 */
import { watchRequests } from '../../../../libs/framework/src/internal.js';
import { loadServedApp, prepareTypeScript, shutdownGraceOf } from './load-served-app.js';
import { REGISTER_URL } from './runtime-paths.js';
import type { ServableApp, ServeMessage } from './served-app.js';

const [file, exportName, host, portText] = process.argv.slice(2);

function tell(message: ServeMessage): void {
  process.send?.(message);
}

function fail(message: string, detail?: unknown): never {
  const stack = detail instanceof Error && detail.stack ? `\n${detail.stack}` : '';
  process.stderr.write(`Error: ${message}${stack}\n`);
  tell({ type: 'failed', message });
  process.exit(1);
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

if (!file || !exportName || !host || !portText)
  fail('usage: serve-app <file> <export> <host> <port>');

watchRequests((fields) => {
  if (fields.model === undefined) return;
  tell({
    type: 'llm-request',
    method: fields.method,
    route: fields.route,
    status: fields.status,
    model: fields.model,
    inputTokens: fields.inputTokens ?? 0,
    outputTokens: fields.outputTokens ?? 0,
    ...(fields.costUsd === undefined ? {} : { costUsd: fields.costUsd }),
    ...(fields.timeToFirstTokenMs === undefined
      ? {}
      : { timeToFirstTokenMs: fields.timeToFirstTokenMs }),
  });
});

let app: ServableApp;
try {
  await prepareTypeScript(process.cwd(), REGISTER_URL);
  app = await loadServedApp(file, exportName);
} catch (error) {
  fail(messageOf(error));
}

let closing: Promise<void> | undefined;
function shutdown(): void {
  closing ??= app
    .close()
    .catch((error: unknown) => {
      process.stderr.write(`Error while closing: ${messageOf(error)}\n`);
    })
    .finally(() => process.exit(0));
}
process.on('SIGINT', shutdown);
process.on('SIGTERM', shutdown);
process.on('disconnect', shutdown);

try {
  await app.run({ host, port: Number(portText), announce: false });
} catch (error) {
  fail(`the app did not start: ${messageOf(error)}`, error);
}
tell({
  type: 'listening',
  pid: process.pid,
  title: app.title,
  version: app.version,
  shutdownGraceMs: await shutdownGraceOf(app),
});
