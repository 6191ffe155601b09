/**
 * Tracing of an `App` in a plain Node process (Node's own module system, where
 * OpenTelemetry's HTTP instrumentation hooks `require`; jest keeps a registry of its own): with
 * tracing off, no `@opentelemetry` package is loaded and nothing is sent; with it on, the HTTP
 * server span comes from `@opentelemetry/instrumentation-http` and `app.close()` flushes it to
 * the OTLP receiver. The fixture is fixtures/tracing.app.ts. Runs on Express and on Fastify.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeModuleTracer } from '../../../apps/cli/test/support/module-trace.js';
import { OtlpReceiver } from './support/otlp-receiver.js';
import { runTypeScriptOutput } from './support/typescript-process.js';

const FIXTURE = fileURLToPath(new URL('./fixtures/tracing.app.ts', import.meta.url));
const SERVER = 2;
const HTTP_INSTRUMENTATION = '@opentelemetry/instrumentation-http';

describe("an App in a plain Node process (Node's module system)", () => {
  let receiver: OtlpReceiver;
  let dir: string;

  beforeAll(async () => {
    receiver = await OtlpReceiver.start();
    dir = mkdtempSync(join(tmpdir(), 'toolkit-tracing-'));
  });
  afterAll(async () => {
    await receiver.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Runs the fixture app, recording every module it loads; resolves to its result and log. */
  async function run(name: string, env: Record<string, string>) {
    const log = join(dir, `${name}.log`);
    const tracer = writeModuleTracer(dir, log);
    const quiet = Object.fromEntries(
      Object.keys(process.env)
        .filter((key) => key.startsWith('OTEL_'))
        .map((key) => [key, '']),
    );
    const { stdout, stderr } = await runTypeScriptOutput(FIXTURE, {
      ...quiet,
      NODE_OPTIONS: `--import ${tracer}`,
      ...env,
    });
    const line = stdout.split('\n').find((l) => l.startsWith('RESULT '));
    if (!line) throw new Error(`no RESULT line in:\n${stdout}\n${stderr}`);
    const result = JSON.parse(line.slice('RESULT '.length)) as {
      status: number;
      requestId: string;
    };
    return { result, modules: readFileSync(log, 'utf8') };
  }

  it('with tracing off, loads no @opentelemetry package and sends nothing', async () => {
    const { result, modules } = await run('off', {});
    expect(result.status).toBe(200);
    expect(modules).toContain('@nestjs/core');
    expect(modules).not.toContain('@opentelemetry/');
    expect(receiver.exports).toHaveLength(0);
  });

  it("with tracing on, OpenTelemetry's HTTP instrumentation makes the server span", async () => {
    const { result, modules } = await run('on', {
      TOOLKIT_TELEMETRY_ENABLED: 'true',
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
    });
    expect(result.status).toBe(200);
    expect(modules).toContain('@opentelemetry/instrumentation-http');
    // Sent before the process printed its result: app.close() flushed it.
    const span = receiver.spans.find(
      (s) => s.attributes['toolkit.request.id'] === result.requestId,
    );
    expect(span).toMatchObject({
      name: 'GET /items/:id',
      kind: SERVER,
      scope: HTTP_INSTRUMENTATION,
      attributes: expect.objectContaining({ 'http.route': '/items/:id' }) as unknown,
    });
  });
});
