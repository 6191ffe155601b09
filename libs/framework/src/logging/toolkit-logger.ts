import { ConsoleLogger, type ConsoleLoggerOptions, type LogLevel } from '@nestjs/common';
import { AccessLogRecord } from './access-log-record.js';
import { currentRequestId } from './request-context.js';

/** The options `ConsoleLogger.printAsJson` gets (the same in Nest 11.1 and 12). */
interface JsonLineOptions {
  context: string;
  logLevel: LogLevel;
  writeStreamType?: 'stdout' | 'stderr';
  errorStack?: unknown;
}

/** Nest 11.2+ builds a JSON line in `getJsonLogObject`; Nest 11.1 inside `printAsJson` only. */
const BUILDS_JSON_OBJECT =
  typeof (ConsoleLogger.prototype as unknown as Record<string, unknown>).getJsonLogObject ===
  'function';

/**
 * Nest's `ConsoleLogger`, text or JSON (`json: true`), that adds the id of the request being served
 * to every line written during it: `[<id>]` after the context in text, a `requestId` field in
 * JSON. An {@link AccessLogRecord} is written as its text line, or as fields of the JSON line.
 * `App` uses it (config `app.log_format`); pass one to a Nest application of yours with
 * `NestFactory.create(AppModule, { logger: new ToolkitLogger({ json: true }) })`.
 *
 * @example
 * const app = new App({ logger: new ToolkitLogger({ json: true, logLevels: ['log', 'error', 'warn'] }) });
 */
export class ToolkitLogger extends ConsoleLogger {
  constructor(options: ConsoleLoggerOptions = {}) {
    super(options);
  }

  protected override formatContext(context: string): string {
    const id = currentRequestId();
    const formatted = super.formatContext(context);
    return id === undefined ? formatted : `${formatted}[${id}] `;
  }

  protected override stringifyMessage(message: unknown, logLevel: LogLevel): string {
    const text = message instanceof AccessLogRecord ? message.toString() : message;
    return super.stringifyMessage(text, logLevel);
  }

  protected override getJsonLogObject(
    message: unknown,
    options: Parameters<ConsoleLogger['getJsonLogObject']>[1],
  ): ReturnType<ConsoleLogger['getJsonLogObject']> {
    if (message instanceof AccessLogRecord) {
      return { ...super.getJsonLogObject(message.toString(), options), ...message.fields };
    }
    const line = super.getJsonLogObject(message, options);
    const requestId = currentRequestId();
    return requestId === undefined ? line : { ...line, requestId };
  }

  /**
   * Nest 11.1 has no `getJsonLogObject` to extend: the line is built here as its `printAsJson`
   * builds it, with the request id (and an access record's fields) added.
   */
  protected override printAsJson(message: unknown, options: JsonLineOptions): void {
    if (BUILDS_JSON_OBJECT) {
      super.printAsJson(message, options);
      return;
    }
    const record = message instanceof AccessLogRecord ? message : undefined;
    const requestId = currentRequestId();
    const line: Record<string, unknown> = {
      level: options.logLevel,
      pid: process.pid,
      timestamp: Date.now(),
      message: record ? record.toString() : message,
      ...(options.context ? { context: options.context } : {}),
      ...(options.errorStack ? { stack: options.errorStack } : {}),
      ...(requestId === undefined ? {} : { requestId }),
      ...record?.fields,
    };
    const text = JSON.stringify(line, (key, value: unknown) => this.stringifyReplacer(key, value));
    process[options.writeStreamType ?? 'stdout'].write(`${text}\n`);
  }
}
