import { expect } from '@jest/globals';
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, runCli, startCli, type CliProcess } from './cli-process.js';
import { cleanEnv } from './dev-helpers.js';

/** A project made by the built `toolkit new` in its own temp folder. */
export interface GeneratedProject {
  /** The project folder. */
  dir: string;
  path(...parts: string[]): string;
  read(...parts: string[]): string;
  /** Removes the temp folder (the project and everything installed into it). */
  cleanup(): void;
  /** What `toolkit new` printed (stdout, then stderr); empty for a project made otherwise. */
  output: string;
}

/**
 * The environment a user's shell would give npm and toolkit: no provider key (the app must run
 * on the offline echo model), no TOOLKIT_* overrides, and none of the variables the npm script
 * and the jest worker running THIS suite export. npm's own settings (cache, registry) are kept.
 */
export function userEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env = cleanEnv(extra);
  for (const name of Object.keys(env)) {
    if (/^(npm_lifecycle_|npm_package_|npm_command$|INIT_CWD$|JEST_WORKER_ID$)/.test(name)) {
      delete env[name];
    }
  }
  delete env.NODE_ENV;
  return { ...env, ...extra };
}

/** Runs `toolkit new <name> -t <template> [options...]` in a fresh temp folder; fails unless it exits 0. */
export async function generateProject(
  template: string,
  name: string,
  options: readonly string[] = [],
): Promise<GeneratedProject> {
  const parent = mkdtempSync(join(tmpdir(), `toolkit-new-${template}-`));
  const cleanup = (): void => rmSync(parent, { recursive: true, force: true });
  const result = await runCli(['new', name, '--template', template, ...options], {
    cwd: parent,
    env: userEnv(),
  });
  if (result.code !== 0) {
    cleanup();
    throw new Error(`toolkit new exited ${result.code}:\n${result.stdout}\n${result.stderr}`);
  }
  const dir = join(parent, name);
  const path = (...parts: string[]): string => join(dir, ...parts);
  return {
    dir,
    path,
    read: (...parts) => readFileSync(path(...parts), 'utf8'),
    cleanup,
    output: `${result.stdout}${result.stderr}`,
  };
}

/** How a program run by {@link runProgram} ended, with stdout and stderr interleaved. */
export interface ProgramResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  output: string;
}

/** Runs a program to completion (killed after `timeoutMs`), capturing its output. */
export function runProgram(
  command: string,
  args: readonly string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv; timeoutMs: number },
): Promise<ProgramResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: options.env ?? userEnv(),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const killer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(killer);
      resolve({ code, signal, output });
    });
  });
}

/**
 * `npm install --prefer-offline --no-audit --no-fund` in the project, as its README says. The
 * default npm cache is shared with this repository's own install, so packages come from it.
 * Fails on an `EBADENGINE` or `ERESOLVE` warning, unless `strict` is false (a project that is not
 * ours, e.g. a plain Nest app, whose own packages may warn on this Node), or the engine warning
 * is about a package in `allowEngine` (a warning `toolkit new` itself announces).
 */
export async function npmInstall(
  project: GeneratedProject,
  { strict = true, allowEngine = [] }: { strict?: boolean; allowEngine?: readonly string[] } = {},
): Promise<void> {
  const result = await runProgram(
    'npm',
    ['install', '--prefer-offline', '--no-audit', '--no-fund'],
    { cwd: project.dir, timeoutMs: 150_000 },
  );
  if (result.code !== 0) throw new Error(`npm install failed (${result.code}):\n${result.output}`);
  // A newcomer cannot act on engine or peer-range warnings: a generated project has none.
  const resolveWarning = /npm warn ERESOLVE.*/.exec(result.output)?.[0];
  const engines = [...result.output.matchAll(/EBADENGINE +package: '(@?[^@']+)@/g)].map(
    ([, name]) => name,
  );
  const engineWarning = /EBADENGINE/.test(result.output)
    ? (engines.find((name) => !allowEngine.includes(name)) ??
      (engines.length === 0 ? 'EBADENGINE' : undefined))
    : undefined;
  const warning = resolveWarning ?? (engineWarning && `EBADENGINE for ${engineWarning}`);
  if (warning && strict) throw new Error(`npm install warned: ${warning}\n${result.output}`);
}

/** The project's own `npm test` (toolkit test → jest with coverage). */
export function npmTest(project: GeneratedProject): Promise<ProgramResult> {
  return runProgram('npm', ['test'], { cwd: project.dir, timeoutMs: 90_000 });
}

/** The project's own `npm run typecheck` (tsc --noEmit over app.ts, src/ and tests/). */
export function npmTypecheck(project: GeneratedProject): Promise<ProgramResult> {
  return runProgram('npm', ['run', 'typecheck'], { cwd: project.dir, timeoutMs: 90_000 });
}

/** Every installed copy of `name` in the project's node_modules tree (folders, relative). */
export function installedCopies(project: GeneratedProject, name: string): string[] {
  const copies: string[] = [];
  const visit = (modules: string): void => {
    let entries: string[];
    try {
      entries = readdirSync(project.path(modules));
    } catch {
      return;
    }
    for (const entry of entries) {
      if (entry.startsWith('.')) continue;
      const packages = entry.startsWith('@')
        ? readdirSync(project.path(modules, entry)).map((sub) => `${entry}/${sub}`)
        : [entry];
      for (const pkg of packages) {
        if (pkg === name) copies.push(`${modules}/${pkg}`);
        visit(`${modules}/${pkg}/node_modules`);
      }
    }
  };
  visit('node_modules');
  return copies;
}

/** A project served by the built `toolkit dev --no-reload`. */
export interface DevServer {
  /** Base URL, e.g. `http://127.0.0.1:43123`. */
  url: string;
  /** Pid of the app process the CLI started. */
  serverPid: number;
  cli: CliProcess;
  /** Sends SIGINT (Ctrl+C) and resolves how the CLI exited. */
  interrupt(): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Kills the CLI if it still runs (cleanup after a failed test). */
  kill(): Promise<void>;
}

/** Starts `toolkit dev --no-reload --port <free>` in the project and waits until it serves. */
export async function startDevServer(
  project: GeneratedProject,
  env: NodeJS.ProcessEnv = {},
): Promise<DevServer> {
  const port = await freePort();
  const cli = startCli(['dev', '--no-reload', '--port', String(port)], {
    cwd: project.dir,
    env: userEnv(env),
    timeoutMs: 150_000,
  });
  const running = (): boolean => cli.child.exitCode === null && cli.child.signalCode === null;
  const kill = async (): Promise<void> => {
    if (running()) {
      cli.child.kill('SIGKILL');
      await cli.exited;
    }
  };
  try {
    const ready = await cli.waitFor(/\(server process (\d+), ready in/, 60_000);
    return {
      url: `http://127.0.0.1:${port}`,
      serverPid: Number(ready[1]),
      cli,
      interrupt: () => {
        cli.child.kill('SIGINT');
        return cli.exited;
      },
      kill,
    };
  } catch (error) {
    await kill();
    throw error;
  }
}

/** `fetch` returning status, headers and the parsed JSON body. */
export async function requestJson(
  url: string,
  init: { method?: string; json?: unknown; headers?: Record<string, string> } = {},
): Promise<{ status: number; headers: Headers; body: unknown }> {
  const method = init.method ?? (init.json === undefined ? 'GET' : 'POST');
  const send = (): Promise<Response> =>
    fetch(url, {
      method,
      headers: {
        ...(init.json === undefined ? {} : { 'content-type': 'application/json' }),
        ...init.headers,
      },
      body: init.json === undefined ? undefined : JSON.stringify(init.json),
    });
  let response: Response;
  try {
    response = await send();
  } catch (error) {
    // fetch reused a keep-alive connection the server had just closed as idle (its
    // keep_alive_timeout), its own close delayed on a loaded machine: as a browser does, a GET
    // goes again on a new connection. Anything else, and any other method, fails as it is.
    if (method !== 'GET' || !closedByServer(error)) throw error;
    response = await send();
  }
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON: keep the text
  }
  return { status: response.status, headers: response.headers, body };
}

/** fetch's error for a connection the server closed before answering (undici's `SocketError`). */
function closedByServer(error: unknown): boolean {
  const cause = (error as { cause?: { code?: unknown } } | null)?.cause;
  return error instanceof TypeError && cause?.code === 'UND_ERR_SOCKET';
}

/** The generated project's own `npm test` exits 0 and jest reports passing tests. */
export async function expectOwnTestsPass(project: GeneratedProject): Promise<void> {
  const result = await npmTest(project);
  expect({ code: result.code, output: result.output }).toEqual({
    code: 0,
    output: expect.stringMatching(/Tests: +\d+ passed, \d+ total/),
  });
}

/** The generated project's own `npm run typecheck` exits 0 with no TypeScript error. */
export async function expectTypeChecks(project: GeneratedProject): Promise<void> {
  const result = await npmTypecheck(project);
  expect({ code: result.code, output: result.output }).toEqual({
    code: 0,
    output: expect.not.stringContaining('error TS'),
  });
}
