/**
 * SIGTERM while an upload is being parsed: the rag template's app served by `toolkit start`.
 * Parsing runs in a worker thread, so the signal is handled at once: the parse is stopped, the
 * upload is answered 503 (or its connection closed), nothing of it is stored, and the process
 * exits 0 within `app.shutdown_grace` plus one second, as it does with streams open.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { readdirSync, readFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import {
  assertCliBuilt,
  freePort,
  REPO_ROOT,
  startCli,
  type CliProcess,
} from './support/cli-process.js';
import { cleanEnv } from './support/dev-helpers.js';
import { createTempProject, type TempProject } from './support/temp-project.js';

const GRACE_SECONDS = 1;
const BOUNDARY = 'toolkit-boundary';

/**
 * HTML of a million nested `<div>`s (13 MB): parsing it takes tens of seconds (the attack report
 * measured ≥ 60 s), so it is still being parsed when the signal comes.
 */
function nestedDivs(): Buffer {
  const depth = 1_000_000;
  return Buffer.from(`<html><body>${'<div>'.repeat(depth)}deep${'</div>'.repeat(depth)}`);
}

/** Sends a multipart upload; resolves once the whole body is written, with the answer to come. */
function startUpload(port: number, filename: string, content: Buffer) {
  const body = Buffer.concat([
    Buffer.from(
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\n` +
        'Content-Type: text/html\r\n\r\n',
    ),
    content,
    Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
  ]);
  return new Promise<{ answer: Promise<number | 'closed'> }>((sent) => {
    const answer = new Promise<number | 'closed'>((resolve) => {
      const req = request(
        {
          host: '127.0.0.1',
          port,
          path: '/upload',
          method: 'POST',
          agent: false,
          headers: {
            'content-type': `multipart/form-data; boundary=${BOUNDARY}`,
            'content-length': body.length,
          },
        },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on('error', () => resolve('closed'));
      req.end(body, () => sent({ answer }));
    });
  });
}

describe('toolkit start: SIGTERM during an upload being parsed', () => {
  let project: TempProject;
  let cli: CliProcess;
  let port: number;

  beforeAll(async () => {
    assertCliBuilt();
    const template = (file: string) => readFileSync(join(REPO_ROOT, 'templates/rag', file), 'utf8');
    project = createTempProject(
      {
        'app.ts': template('app.ts.hbs').replaceAll('{{name}}', 'parsing'),
        'src/rag.controller.ts': template('src/rag.controller.ts'),
        'toolkit.yaml':
          `app:\n  shutdown_grace: ${GRACE_SECONDS}\n  upload_limit: 32mb\n` +
          'rag:\n  ingest_timeout: 10m\n  ingest_memory: 4gb\n',
        'docs/documents/.gitkeep': '',
        'package.json': JSON.stringify({ name: 'parsing', type: 'module' }),
      },
      ['toolkit', '@nestjs'],
    );
    port = await freePort();
    cli = startCli(['start', '--port', String(port), '--host', '127.0.0.1'], {
      cwd: project.dir,
      env: cleanEnv(),
      timeoutMs: 120_000,
    });
    await cli.waitFor(/Serving parsing v0\.1\.0 at /, 60_000);
  }, 90_000);

  afterAll(() => {
    if (cli.child.exitCode === null) cli.child.kill('SIGKILL');
    project.cleanup();
  });

  it('stops the parse, answers 503 or closes, stores nothing, and exits 0 within the grace', async () => {
    const { answer } = await startUpload(port, 'nested.html', nestedDivs());
    // The whole body is sent: the server reads it in well under a second, then parses.
    await new Promise((resolve) => setTimeout(resolve, 500));
    const signalledAt = Date.now();
    cli.child.kill('SIGTERM');
    const { code } = await cli.exited;
    const elapsed = Date.now() - signalledAt;
    expect(code).toBe(0);
    expect(elapsed).toBeLessThan(GRACE_SECONDS * 1000 + 1000);
    const status = await answer;
    expect([503, 'closed']).toContain(status);
    const stored = readdirSync(project.path('docs', 'documents')).filter((f) => !f.startsWith('.'));
    expect(stored).toEqual([]);
  }, 60_000);
});
