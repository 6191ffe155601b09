import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '../../../apps/cli/test/support/cli-process.js';
import { writeModuleTracer } from '../../../apps/cli/test/support/module-trace.js';
import {
  createTempProject,
  type TempProject,
} from '../../../apps/cli/test/support/temp-project.js';

const ENTRY = join(REPO_ROOT, 'dist/libs/framework/src/index.js');

/** Runs an ES module script with node in the repository, recording every module it loads. */
function tracedRun(project: TempProject, script: string, name: string): Promise<string> {
  const log = project.path(`${name}.log`);
  const tracer = writeModuleTracer(project.dir, log);
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--import', tracer, '--input-type=module', '-e', script],
      { cwd: REPO_ROOT, stdio: ['ignore', 'ignore', 'pipe'] },
    );
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('close', (code) => {
      if (code !== 0) reject(new Error(`script exited ${code}: ${stderr}`));
      else resolve(readFileSync(log, 'utf8'));
    });
  });
}

/** The packages that must wait for first use. */
const LAZY = [
  'openai',
  '@anthropic-ai/sdk',
  'ioredis',
  'pg',
  'busboy',
  'unpdf',
  'mammoth',
  'cheerio',
  'marked',
  'class-validator',
  '@nestjs/platform-express',
  '@opentelemetry/api',
  '@opentelemetry/sdk-trace-node',
  '@opentelemetry/instrumentation-http',
  '@modelcontextprotocol/sdk',
];

const loadedPackages = (log: string): Set<string> =>
  new Set(
    [...log.matchAll(/(?:node_modules\/|^require:)((?:@[^/\n]+\/)?[^/\n.][^/\n]*)/gm)].map(
      (match) => match[1],
    ),
  );

describe("import 'toolkit': SDKs, backend clients and parsers load on first use", () => {
  let project: TempProject;

  beforeAll(() => {
    if (!existsSync(ENTRY)) throw new Error(`${ENTRY} is missing: run "npm run build" first`);
    project = createTempProject({});
  });
  afterAll(() => project.cleanup());

  it('loads Nest but none of the SDKs, backend clients or parsers', async () => {
    const loaded = loadedPackages(
      await tracedRun(project, `await import(${JSON.stringify(ENTRY)});`, 'import'),
    );
    expect(loaded.has('@nestjs/core')).toBe(true);
    for (const name of LAZY)
      expect({ name, loaded: loaded.has(name) }).toEqual({ name, loaded: false });
  });

  it("keeps 'toolkit/rag' on its own free of Nest's core (it reaches the framework by its light internal door)", async () => {
    const rag = join(REPO_ROOT, 'dist/libs/rag/src/index.js');
    const loaded = loadedPackages(
      await tracedRun(project, `await import(${JSON.stringify(rag)});`, 'import-rag'),
    );
    expect(loaded.has('@nestjs/core')).toBe(false);
    // Its document parsers are its own business; the SDKs and backend clients wait for first use.
    for (const name of LAZY.filter((lazy) => !['unpdf', 'cheerio', 'marked'].includes(lazy)))
      expect({ name, loaded: loaded.has(name) }).toEqual({ name, loaded: false });
  });

  it('loads the OpenAI SDK, pg and ioredis once an app uses them', async () => {
    const script = `
      const { LLM } = await import(${JSON.stringify(ENTRY)});
      const { PostgresMemoryStore, RedisMemoryStore } = await import(${JSON.stringify(
        join(REPO_ROOT, 'dist/libs/providers/src/index.js'),
      )});
      const llm = new LLM({ model: 'gpt-4o-mini', apiKey: 'sk-test', baseURL: 'http://127.0.0.1:9/v1' });
      await llm.generate('hi').catch(() => undefined);
      await new RedisMemoryStore().close();
      await new PostgresMemoryStore().close();
    `;
    const loaded = loadedPackages(await tracedRun(project, script, 'use'));
    expect(loaded.has('openai')).toBe(true);
    expect(loaded.has('pg')).toBe(true);
    expect(loaded.has('ioredis')).toBe(true);
    expect(loaded.has('@anthropic-ai/sdk')).toBe(false);
  });
});
