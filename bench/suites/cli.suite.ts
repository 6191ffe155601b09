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
  return new Promise((resolve, reject) => {
    const start = performance.now();
    const child = spawn(process.execPath, [script, '--version'], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('exit', (code) => {
      const ms = performance.now() - start;
      if (code !== 0 || !/^\d+\.\d+\.\d+/.test(out.trim())) {
        reject(new Error(`${script} --version exited ${code} printing ${JSON.stringify(out)}`));
      } else {
        resolve(ms);
      }
    });
  });
}

/** CLI start-up: `toolkit --version` vs a bare commander program printing a version. */
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
  return [
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
