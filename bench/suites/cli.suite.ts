import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { BenchSettings } from '../support/settings.js';
import { interleave, log } from '../support/rounds.js';
import type { Row } from '../support/row.js';
import { benchFile } from '../support/server-process.js';
import { median } from '../support/stats.js';

const TOOLKIT_BIN = fileURLToPath(new URL('../../apps/cli/src/main.js', import.meta.url));

/** Wall-clock milliseconds of one `node <script> --version`, checking it printed a version. */
function startUp(script: string): Promise<number> {
  return timedRun(script, ['--version'], /^\d+\.\d+\.\d+/);
}

/** Wall-clock milliseconds of one `node <script> <args>`, checking exit 0 and its output. */
function timedRun(script: string, args: readonly string[], expected: RegExp): Promise<number> {
  return new Promise((resolve, reject) => {
    const start = performance.now();
    const child = spawn(process.execPath, [script, ...args], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('exit', (code) => {
      const ms = performance.now() - start;
      if (code !== 0 || !expected.test(out.trim())) {
        const command = [script, ...args].join(' ');
        reject(new Error(`${command} exited ${code} printing ${JSON.stringify(out)}`));
      } else {
        resolve(ms);
      }
    });
  });
}

/** `toolkit <command> --help` vs the same help from a bare commander program, in ms. */
async function helpRow(settings: BenchSettings, command: 'new' | 'dev'): Promise<Row> {
  const args = [command, '--help'];
  const expected = new RegExp(`^Usage: toolkit ${command} `);
  const scripts = { toolkit: TOOLKIT_BIN, bare: benchFile('workers/bare-cli-help.js') };
  await timedRun(scripts.toolkit, args, expected);
  await timedRun(scripts.bare, args, expected);
  const values = await interleave(['toolkit', 'bare'] as const, settings.rounds, async (key) => {
    const samples: number[] = [];
    for (let i = 0; i < settings.cliRuns; i += 1)
      samples.push(await timedRun(scripts[key], args, expected));
    return median(samples);
  });
  return {
    id: `cli-${command}-help`,
    name: `CLI help: \`toolkit ${command} --help\` vs bare commander, same options (lower is better)`,
    unit: 'ms',
    toolkit: values.toolkit,
    baseline: values.bare,
    target: { kind: 'max', value: 1.5 },
  };
}

/** `import 'toolkit'` vs importing `@nestjs/core` + `@nestjs/common`, in ms per process. */
async function importRow(settings: BenchSettings): Promise<Row> {
  const scripts = {
    toolkit: benchFile('workers/import-toolkit.js'),
    bare: benchFile('workers/import-nest.js'),
  };
  await timedRun(scripts.toolkit, [], /^ok$/);
  await timedRun(scripts.bare, [], /^ok$/);
  const values = await interleave(['toolkit', 'bare'] as const, settings.rounds, async (key) => {
    const samples: number[] = [];
    for (let i = 0; i < settings.cliRuns; i += 1)
      samples.push(await timedRun(scripts[key], [], /^ok$/));
    return median(samples);
  });
  return {
    id: 'import',
    name: "Cold start: `import 'toolkit'` vs `@nestjs/core` + `@nestjs/common` (lower is better)",
    unit: 'ms',
    toolkit: values.toolkit,
    baseline: values.bare,
    target: { kind: 'max', value: 1.3 },
  };
}

/**
 * CLI start-up: `toolkit --version`, `toolkit new --help` and `toolkit dev --help`, each against a
 * bare commander program doing the same.
 */
export async function cliSuite(settings: BenchSettings): Promise<Row[]> {
  log(`CLI start-up, ${settings.cliRuns} spawns per round`);
  const scripts = { toolkit: TOOLKIT_BIN, bare: benchFile('workers/bare-cli.js') };
  await startUp(scripts.toolkit);
  await startUp(scripts.bare);
  const values = await interleave(['toolkit', 'bare'] as const, settings.rounds, async (key) => {
    const samples: number[] = [];
    for (let i = 0; i < settings.cliRuns; i += 1) samples.push(await startUp(scripts[key]));
    return median(samples);
  });
  const help = [
    await helpRow(settings, 'new'),
    await helpRow(settings, 'dev'),
    await importRow(settings),
  ];
  return [
    ...help,
    {
      id: 'cli',
      name: 'CLI start-up: `toolkit --version` vs bare commander (lower is better)',
      unit: 'ms',
      toolkit: values.toolkit,
      baseline: values.bare,
      target: { kind: 'max', value: 1.5 },
    },
  ];
}
