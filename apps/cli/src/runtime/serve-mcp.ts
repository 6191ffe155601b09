/**
 * Entry of the child process that serves the user's app's tools over stdio for `toolkit mcp`,
 * spawned as `node serve-mcp.js <file> <export>` with the MCP client's messages on stdin and the
 * answers on fd 3, while its own stdout goes to the CLI's stderr: whatever the app logs (Nest's
 * logger writes to stdout) can never corrupt the protocol. Loads the framework, registers the
 * TypeScript loader, imports the module, starts the app's Nest container (no HTTP port) and
 * serves every `@Tool()` of its `ToolRegistry` until the client closes stdin, or on SIGINT or
 * SIGTERM, then closes the app.
 */
import { createWriteStream } from 'node:fs';
import type { AppInfo } from '../../../../libs/framework/src/index.js';
import { APP_INFO, ToolRegistry } from '../../../../libs/framework/src/index.js';
import { serveToolsOverStdio } from '../../../../libs/framework/src/internal.js';
import { loadServedApp, prepareTypeScript } from './load-served-app.js';
import { REGISTER_URL } from './runtime-paths.js';
import type { ServableApp } from './served-app.js';

/** What a toolkit `App` has beyond serving: its container. */
interface ContainerApp extends ServableApp {
  get<T>(token: unknown): Promise<T>;
}

const [file, exportName] = process.argv.slice(2);

function fail(message: string): never {
  process.stderr.write(`Error: ${message}\n`);
  process.exit(1);
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

if (!file || !exportName) fail('usage: serve-mcp <file> <export>');

let app: ServableApp;
try {
  await prepareTypeScript(process.cwd(), REGISTER_URL);
  app = await loadServedApp(file, exportName);
} catch (error) {
  fail(messageOf(error));
}
if (typeof (app as Partial<ContainerApp>).get !== 'function') {
  fail(`"${exportName}" is not a toolkit App: toolkit mcp serves the @Tool() methods of an App`);
}
const container = app as ContainerApp;

let tools: ReturnType<ToolRegistry['decorated']>;
let info: AppInfo;
try {
  tools = (await container.get<ToolRegistry>(ToolRegistry)).decorated();
  info = await container.get<AppInfo>(APP_INFO);
} catch (error) {
  fail(`the app did not start: ${messageOf(error)}`);
}

const serving = await serveToolsOverStdio({
  name: info.name,
  version: info.version,
  tools,
  input: process.stdin,
  output: createWriteStream('', { fd: 3 }),
}).catch((error: unknown) => fail(messageOf(error)));
process.stderr.write(`${info.name}: serving ${tools.length} tool(s) over MCP (stdio)\n`);

let closing: Promise<void> | undefined;
function shutdown(): void {
  closing ??= serving
    .close()
    .then(() => app.close())
    .catch((error: unknown) => {
      process.stderr.write(`Error while closing: ${messageOf(error)}\n`);
    })
    .finally(() => process.exit(0));
}
process.on('SIGINT', shutdown);
process.on('SIGTERM', shutdown);
void serving.closed.then(shutdown);
