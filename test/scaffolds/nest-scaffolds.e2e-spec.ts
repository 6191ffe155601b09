import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { installedCopies, requestJson } from '../../apps/cli/test/support/generated-project.js';
import { packToolkit } from '../integration/support/toolkit-tarball.js';
import {
  comparable,
  headerDifferences,
  HOST_REQUESTS,
  recordHostResponses,
  type RawResponse,
} from './support/host-responses.js';
import { readInstallOutput } from './support/npm-output.js';
import {
  median,
  NUMBERS_FILE,
  writeScaffoldNumbers,
  type ScaffoldNumbers,
} from './support/scaffold-numbers.js';
import { ScaffoldProject } from './support/scaffold-project.js';
import { startScaffoldServer, type ScaffoldServer } from './support/scaffold-server.js';
import { selectedVariants, type ScaffoldRunner } from './support/scaffold-variants.js';
import type { WatchedResult } from './support/watched-run.js';

/**
 * toolkit added to apps exactly as the official Nest CLI generates them (fixtures/, see
 * README.md): a plain `npm install <packed toolkit>`, a controller with `@Route`, `@Stream` and
 * `@Cache`, a unit spec in the CLI's style and an e2e spec with MockLLM; then the app's own,
 * unchanged `npm run build`, `npm test` and `npm run test:e2e`, and its own routes answered byte
 * for byte as before toolkit came in. Every step is limited by its progress (silence), not by
 * a total time.
 */

/** Set up one app: its install, build, tests and a first run, then toolkit's install. */
const SETUP_MS = 600_000;
/** One step of a test (a build, a test run); each is also killed when silent. */
const STEP_MS = 300_000;
/** Cold starts measured for each build, alternating which goes first. */
const COLD_START_PAIRS = 5;

let tarball = '';
let tarballDir = '';
const numbers: Record<string, ScaffoldNumbers> = {};

beforeAll(async () => {
  tarballDir = mkdtempSync(join(tmpdir(), 'toolkit-scaffold-tarball-'));
  tarball = await packToolkit(tarballDir);
}, 120_000);

afterAll(() => {
  if (tarballDir) rmSync(tarballDir, { recursive: true, force: true });
  if (tarball) writeScaffoldNumbers(basename(tarball), numbers);
  console.log(`Scaffold numbers (${NUMBERS_FILE}):\n${JSON.stringify(numbers, null, 2)}`);
});

/** Fails with the step's output unless it exited 0. */
function succeeded(result: WatchedResult): WatchedResult {
  if (result.code !== 0) {
    throw new Error(`${result.command} exited ${result.code ?? result.signal}:\n${result.output}`);
  }
  return result;
}

/** How the runner reports a spec file that passed, e.g. `PASS src/x.spec.ts` (jest). */
function passedSpec(runner: ScaffoldRunner, file: string): RegExp {
  const path = file.replaceAll('.', '\\.');
  return runner === 'jest' ? new RegExp(`^PASS +${path}\\b`, 'm') : new RegExp(`✓ +${path}\\b`);
}

describe.each(selectedVariants())('toolkit in the $name app the Nest CLI made', (variant) => {
  let project: ScaffoldProject;
  const measured: ScaffoldNumbers = { stepsMs: {} };
  numbers[variant.name] = measured;
  let withoutToolkit: Record<string, RawResponse> = {};
  let hostEngineWarnings: string[] = [];
  let toolkitInstall: WatchedResult | undefined;

  const step = async (name: string, run: () => Promise<WatchedResult>): Promise<WatchedResult> => {
    const result = await run();
    measured.stepsMs[name] = result.ms;
    return result;
  };

  beforeAll(async () => {
    project = new ScaffoldProject(variant.fixture);
    project.overlay(variant.hostOverlays);
    const install = succeeded(await step('npm install', () => project.npmPackages('install')));
    hostEngineWarnings = readInstallOutput(install.output).engineWarnings;
    for (const [command, ...packages] of variant.hostPackages) {
      const result = await step(`npm ${command} ${packages.join(' ')}`, () =>
        project.npmPackages(command, ...packages),
      );
      hostEngineWarnings.push(...readInstallOutput(succeeded(result).output).engineWarnings);
    }
    succeeded(await step('npm run build (without toolkit)', () => project.npmRun('build')));
    succeeded(await step('npm test (without toolkit)', () => project.npmRun('test')));
    succeeded(await step('npm run test:e2e (without toolkit)', () => project.npmRun('test:e2e')));
    const server = await startScaffoldServer(project.dir, 'dist/main');
    try {
      withoutToolkit = await recordHostResponses(server.url);
    } finally {
      await server.stop();
    }
    project.keepBuild('dist-without-toolkit');
    toolkitInstall = await step('npm install <toolkit tarball>', () =>
      project.npmPackages('install', tarball),
    );
    project.overlay(variant.toolkitOverlays);
  }, SETUP_MS);
  afterAll(() => project?.cleanup());

  it('installs the packed toolkit with a plain npm install: no ERESOLVE, no engine warning', () => {
    const report = readInstallOutput(toolkitInstall!.output);
    measured.toolkitInstall = { ms: toolkitInstall!.ms, addedPackages: report.added };
    expect({ code: toolkitInstall!.code, output: toolkitInstall!.output }).toEqual({
      code: 0,
      output: expect.stringMatching(/added \d+ packages?/),
    });
    expect(report.resolveWarnings).toEqual([]);
    expect(report.toolkitWarnings).toEqual([]);
    // npm repeats the app's own engine warnings (Nest 12's CLI on Node 20) on every install.
    const newEngineWarnings = report.engineWarnings.filter(
      (pkg) => !hostEngineWarnings.includes(pkg),
    );
    expect(newEngineWarnings).toEqual([]);
    expect(installedCopies(project, 'toolkit')).toEqual(['node_modules/toolkit']);
    for (const name of ['@nestjs/common', '@nestjs/core']) {
      expect(installedCopies(project, name)).toEqual([`node_modules/${name}`]);
    }
    for (const name of variant.absentPackages) expect(installedCopies(project, name)).toEqual([]);
    if (variant.nestVersion) {
      const core = JSON.parse(project.read('node_modules/@nestjs/core/package.json')) as {
        version: string;
      };
      expect(core.version).toBe(variant.nestVersion);
    }
  });

  it(
    'builds with its own npm run build',
    async () => {
      const build = await step('npm run build', () => project.npmRun('build'));
      expect({ code: build.code, output: build.output }).toEqual({
        code: 0,
        output: expect.not.stringContaining('error TS'),
      });
    },
    STEP_MS,
  );

  it(
    'passes its own npm test, the CLI-style ChatController spec included',
    async () => {
      const test = await step('npm test', () => project.npmRun('test'));
      expect({ code: test.code, output: test.output }).toEqual({
        code: 0,
        output: expect.stringMatching(
          passedSpec(variant.runner, 'src/chat/chat.controller.spec.ts'),
        ),
      });
      expect(test.output).toMatch(passedSpec(variant.runner, 'src/app.controller.spec.ts'));
    },
    STEP_MS,
  );

  it(
    'passes its own npm run test:e2e, the MockLLM e2e spec included',
    async () => {
      const e2e = await step('npm run test:e2e', () => project.npmRun('test:e2e'));
      expect({ code: e2e.code, output: e2e.output }).toEqual({
        code: 0,
        output: expect.stringMatching(passedSpec(variant.runner, 'test/chat.e2e-spec.ts')),
      });
      expect(e2e.output).toMatch(passedSpec(variant.runner, 'test/app.e2e-spec.ts'));
    },
    STEP_MS,
  );

  describe('started with node dist/main', () => {
    let server: ScaffoldServer | undefined;
    const url = (path: string): string => `${server!.url}${path}`;

    beforeAll(async () => {
      server = await startScaffoldServer(project.dir, 'dist/main');
    }, STEP_MS);
    afterAll(() => server?.stop());

    it("answers the host's own routes byte for byte as without toolkit", async () => {
      const withToolkit = await recordHostResponses(server!.url);
      const [before, after] = [comparable(withoutToolkit), comparable(withToolkit)];
      measured.identicalHostAnswers = HOST_REQUESTS.filter(({ name }) =>
        isDeepStrictEqual(before[name], after[name]),
      ).length;
      measured.headerDifferences = headerDifferences(withoutToolkit, withToolkit);
      expect(after).toEqual(before);
      expect(measured.identicalHostAnswers).toBe(HOST_REQUESTS.length);
    });

    it("answers toolkit's @Route, @Stream and @Cache routes (offline model, no key)", async () => {
      const asked = await requestJson(url('/chat/ask'), { json: { message: 'Hello' } });
      expect(asked).toMatchObject({ status: 200, body: { reply: expect.any(String) } });
      const stream = await fetch(url('/chat/stream?message=Hello'));
      expect(stream.status).toBe(200);
      expect(stream.headers.get('content-type')).toMatch(/^text\/event-stream/);
      expect(await stream.text()).toMatch(/^event: message\ndata: \S/);
      const first = await requestJson(url('/chat/cached?message=Hello'));
      const second = await requestJson(url('/chat/cached?message=Hello'));
      expect([first.headers.get('x-cache'), second.headers.get('x-cache')]).toEqual([
        'MISS',
        'HIT',
      ]);
      expect(second.body).toEqual(first.body);
    });
  });

  it(
    'starts cold with and without ToolkitModule (paired runs; reported, not asserted)',
    async () => {
      const builds = { withoutToolkit: 'dist-without-toolkit/main', withToolkit: 'dist/main' };
      const runs: { withoutToolkit: number[]; withToolkit: number[] } = {
        withoutToolkit: [],
        withToolkit: [],
      };
      for (let pair = 0; pair < COLD_START_PAIRS; pair += 1) {
        const order = ['withoutToolkit', 'withToolkit'] as const;
        for (const build of pair % 2 ? [...order].reverse() : order) {
          const server = await startScaffoldServer(project.dir, builds[build]);
          await server.stop();
          runs[build].push(server.coldStartMs);
        }
      }
      measured.coldStartMs = runs;
      console.log(
        `${variant.name} cold start, median of ${COLD_START_PAIRS}: ` +
          `${median(runs.withoutToolkit)} ms without toolkit, ${median(runs.withToolkit)} ms with`,
      );
      expect(runs.withToolkit).toHaveLength(COLD_START_PAIRS);
    },
    STEP_MS,
  );
});
