/**
 * `toolkit start` serves the app in the CLI's own process (no watcher, so no child to restart).
 * What every deploy does to it: SIGTERM with streams open. The app ends them after
 * `app.shutdown_grace` (each gets a last `event: error`, each producer's `finally` runs) and the
 * process exits 0 within the grace period plus one second.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { existsSync, readFileSync } from 'node:fs';
import { request } from 'node:http';
import {
  assertCliBuilt,
  freePort,
  runCli,
  startCli,
  type CliProcess,
} from './support/cli-process.js';
import { cleanEnv } from './support/dev-helpers.js';
import { writeModuleTracer } from './support/module-trace.js';
import { createTempProject, type TempProject } from './support/temp-project.js';

const STREAMS = 5;
const GRACE_SECONDS = 1;

const ENDLESS_APP = `import { appendFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { App } from 'toolkit';

export const app = new App({ title: 'endless', version: '1.0.0' });
app.route('/health', { methods: ['GET'] }, () => ({ status: 'healthy' }));
app.route('/ticks', { stream: true }, async function* (_params, { signal }) {
  try {
    for (let i = 0; ; i += 1) {
      yield 'tick ' + i;
      await sleep(100, undefined, { signal }).catch(() => undefined);
    }
  } finally {
    appendFileSync('finally.log', 'ran\\n');
  }
});
`;

function openTicks(port: number): Promise<{ body: () => string; ended: Promise<void> }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: '/ticks', agent: false }, (res) => {
      let body = '';
      const ended = new Promise<void>((done) => res.on('end', done));
      res.on('data', (chunk: Buffer) => {
        body += chunk.toString();
      });
      res.once('data', () => resolve({ body: () => body, ended }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('toolkit start: SIGTERM with open streams', () => {
  let project: TempProject;
  let cli: CliProcess;
  let port: number;
  let served: RegExpMatchArray;

  beforeAll(async () => {
    assertCliBuilt();
    project = createTempProject(
      {
        'app.ts': ENDLESS_APP,
        'toolkit.yaml': `app:\n  shutdown_grace: ${GRACE_SECONDS}\n`,
        'package.json': JSON.stringify({ name: 'endless', type: 'module' }),
      },
      ['toolkit'],
    );
    port = await freePort();
    const tracer = writeModuleTracer(project.dir, project.path('modules.log'));
    cli = startCli(['start', '--port', String(port), '--host', '127.0.0.1'], {
      cwd: project.dir,
      env: { ...cleanEnv(), NODE_OPTIONS: `--import=${tracer}` },
      timeoutMs: 60_000,
    });
    served = await cli.waitFor(/Serving endless v1\.0\.0 at \S+ \(server process (\d+)/, 30_000);
  });

  afterAll(() => {
    if (cli.child.exitCode === null) cli.child.kill('SIGKILL');
    project.cleanup();
  });

  it('serves in its own process: Nest is loaded once, and a signal to it reaches the app', () => {
    expect(Number(served[1])).toBe(cli.child.pid);
  });

  it('needs no CLI-only package: nest-commander is never loaded', () => {
    const loaded = readFileSync(project.path('modules.log'), 'utf8');
    expect(loaded).toContain('@nestjs/core');
    expect(loaded).not.toContain('nest-commander');
  });

  it('ends every stream after the grace period and exits 0 within it plus one second', async () => {
    const streams = await Promise.all(Array.from({ length: STREAMS }, () => openTicks(port)));
    const startedAt = Date.now();
    cli.child.kill('SIGTERM');
    const { code } = await cli.exited;
    const elapsed = Date.now() - startedAt;
    expect(code).toBe(0);
    expect(elapsed).toBeLessThan(GRACE_SECONDS * 1000 + 1000);
    await Promise.all(streams.map((s) => s.ended));
    for (const stream of streams) {
      expect(stream.body()).toMatch(/event: message\ndata: tick 0\n\n/);
      expect(stream.body()).toMatch(
        /event: error\ndata: \{"error":"The server is shutting down"\}\n\n$/,
      );
    }
    const log = project.path('finally.log');
    expect(existsSync(log)).toBe(true);
    expect(readFileSync(log, 'utf8').trim().split('\n')).toHaveLength(STREAMS);
  });
});

describe('toolkit start: an app that cannot be served', () => {
  // [name, app.ts after the import, expected line, toolkit.yaml ('' for none)]
  const cases: Array<[string, string, RegExp, string]> = [
    ['a syntax error', 'export const app = new App({;\n', /^Error: cannot load app\.ts: /m, ''],
    ['no such export', 'export const server = 1;\n', /^Error: app\.ts does not export "app"/m, ''],
    [
      'an export that is not an App',
      'export const app = { title: "x" };\n',
      /^Error: "app" in app\.ts is not an App/m,
      '',
    ],
    [
      'a configuration it refuses',
      "export const app = new App({ title: 'x' });\n",
      /^Error: Invalid configuration: cache\.ttl must be an integer/m,
      'cache:\n  ttl: soon\n',
    ],
    [
      'an app whose start fails (it is closed, and the process ends)',
      "import { writeFileSync } from 'node:fs';\n" +
        "export const app = { run: async () => { throw new Error('no database'); }, close: async () => writeFileSync('closed.log', 'yes') };\n",
      /^Error: the app did not start: no database$/m,
      '',
    ],
  ];

  it.each(cases)(
    'exits 1 with one line for %s, no stack trace',
    async (_name, source, line, yaml) => {
      const project = createTempProject(
        {
          'app.ts': `import { App } from 'toolkit';\n${source}`,
          'package.json': '{"type":"module"}',
          ...(yaml === '' ? {} : { 'toolkit.yaml': yaml }),
        },
        ['toolkit'],
      );
      try {
        const port = await freePort();
        const result = await runCli(['start', '--port', String(port), '--host', '127.0.0.1'], {
          cwd: project.dir,
          env: cleanEnv(),
          timeoutMs: 60_000,
        });
        expect(result.code).toBe(1);
        expect(result.stderr).toMatch(line);
        expect(result.stderr).not.toMatch(/^\s+at /m);
        if (source.includes('no database'))
          expect(existsSync(project.path('closed.log'))).toBe(true);
      } finally {
        project.cleanup();
      }
    },
    90_000,
  );
});
