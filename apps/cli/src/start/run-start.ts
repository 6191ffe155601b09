import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { AppServerService } from '../dev/app-server.service.js';
import { ServeModule } from '../modules/serve.module.js';
import { TerminalService } from '../services/terminal.service.js';
import { reportError } from '../shell/error-reporter.js';
import { startRequest, type StartOptions } from './start-request.js';

/**
 * `toolkit start [-p|--port $PORT] [-h|--host $HOST] [-a|--app app:app]`: serves the app for
 * production (no watcher; `0.0.0.0:8000` unless HOST/PORT say otherwise), which is what the
 * generated deployment files run. It is the one command that does not go through
 * nest-commander: it resolves its injectable services from a Nest application context of
 * {@link ServeModule} instead, so serving an app needs only the packages the app needs at run
 * time (`npm install --omit=dev` is enough); nest-commander and its prompt and completion
 * packages are development dependencies of a project. Its help and usage errors come from the
 * command manifest like every command's. Resolves the exit status.
 *
 * @example
 * process.exitCode = await runStart({ app: 'app:app' });
 */
export async function runStart(options: StartOptions): Promise<number> {
  const context = await NestFactory.createApplicationContext(ServeModule, {
    // Not `false`: in one process, that would remove Nest's logger for the app served here too
    // (Nest's logger is static); the app's own `logger` setting decides its levels.
    logger: ['error', 'warn'],
    abortOnError: false,
  });
  const terminal = context.get(TerminalService);
  try {
    const request = startRequest(options, process.cwd(), process.env);
    return await context.get(AppServerService).serve(request);
  } catch (error) {
    return reportError(error, terminal);
  } finally {
    await context.close();
  }
}
