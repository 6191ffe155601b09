import { beforeAll, describe, expect, it } from '@jest/globals';
import { createServer } from 'node:net';
import { formatUsd } from '../src/dev/llm-request-line.js';
import { assertCliBuilt, freePort, isAlive, runCli, startCli } from './support/cli-process.js';
import { cleanAfterEach, cleanEnv, getJson } from './support/dev-helpers.js';
import { createTempProject, TINY_APP } from './support/temp-project.js';

/**
 * An app with two LLM routes on the offline echo model, priced so that calls have a cost; each
 * answer carries the usage the model reported (the streamed one as its last event).
 */
const LLM_APP = `import { App, LLM, recordRequestUsage } from 'toolkit';

const llm = new LLM('echo', {
  prices: { echo: { input: 1000, output: 2000 } },
  onUsage: recordRequestUsage,
});
export const app = new App({ title: 'chat' });
app.route('/chat', { methods: ['POST'], params: { message: 'string' } }, async ({ message }) => {
  let usage;
  const answer = await llm.chat(message, { onUsage: (u) => (usage = u) });
  return { answer, usage };
});
app.route(
  '/chat/stream',
  { methods: ['POST'], stream: true, params: { message: 'string' } },
  async function* ({ message }) {
    let usage;
    yield* await llm.chat(message, { stream: true, onUsage: (u) => (usage = u) });
    yield { usage };
  },
);
`;

interface Usage {
  inputTokens: number;
  outputTokens: number;
  costUsd: number;
  timeToFirstTokenMs?: number;
}

describe('toolkit dev: checks before serving, and --no-reload', () => {
  const { track, watch } = cleanAfterEach();

  beforeAll(() => assertCliBuilt());

  it('exits 1 with "Application file not found" when there is no app.ts', async () => {
    const project = track(createTempProject({ 'README.md': '# empty\n' }, ['toolkit']));
    const result = await runCli(['dev'], { cwd: project.dir });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('Application file not found');
    expect(result.stderr).toContain('app.ts');
    const custom = await runCli(['dev', '--app', 'src/server:app'], { cwd: project.dir });
    expect(custom.code).toBe(1);
    expect(custom.stderr).toMatch(/Application file not found: no src\/server\.ts/);
  });

  it('exits 1 with an install hint when @nestjs/platform-express cannot be resolved', async () => {
    const project = track(createTempProject({ 'app.ts': TINY_APP })); // no node_modules at all
    const result = await runCli(['dev'], { cwd: project.dir });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('@nestjs/platform-express is not installed');
    expect(result.stderr).toContain('npm install @nestjs/platform-express');
  });

  it('exits 1 naming the key when toolkit.yaml is invalid', async () => {
    const project = track(
      createTempProject({ 'app.ts': TINY_APP, 'toolkit.yaml': 'cache:\n  ttl: soon\n' }, [
        'toolkit',
      ]),
    );
    const result = await runCli(['dev'], { cwd: project.dir, env: cleanEnv() });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/Invalid configuration: cache\.ttl .* in toolkit\.yaml/);
  });

  it('exits 1 when the port is taken', async () => {
    const project = track(createTempProject({ 'app.ts': TINY_APP }, ['toolkit']));
    const blocker = createServer();
    const port = await freePort();
    await new Promise<void>((resolve) => blocker.listen(port, '127.0.0.1', resolve));
    try {
      const result = await runCli(['dev', '--port', String(port)], {
        cwd: project.dir,
        env: cleanEnv(),
      });
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(`Port ${port} is already in use`);
    } finally {
      await new Promise((resolve) => blocker.close(resolve));
    }
  });

  it('--no-reload serves app.js, reports the LLM in use, and exits 0 on SIGTERM', async () => {
    // TINY_APP is plain JavaScript too; served from a .js file here.
    const project = track(
      createTempProject(
        {
          'server.js': TINY_APP,
          'package.json': '{"type":"module"}',
          '.env': 'OPENAI_API_KEY=sk-test-123\n',
        },
        ['toolkit'],
      ),
    );
    const port = await freePort();
    const cli = watch(
      startCli(['dev', '--no-reload', '-p', String(port), '-h', '127.0.0.1', '-a', 'server:app'], {
        cwd: project.dir,
        env: cleanEnv(),
        timeoutMs: 60_000,
      }),
    );
    const served = await cli.waitFor(/server process (\d+)/, 30_000);
    expect(cli.stdout()).toMatch(/Reload: +off/);
    expect(cli.stdout()).toMatch(/App: +server:app \(server\.js\)/);
    expect(cli.stdout()).toMatch(/LLM: +gpt-4o-mini via OpenAI \(openai, OPENAI_API_KEY set\)/);
    expect(cli.stdout()).not.toContain('sk-test-123');
    expect(cli.stderr()).not.toContain('offline');
    expect(await getJson(`http://127.0.0.1:${port}/health`)).toEqual({
      status: 200,
      body: { status: 'healthy' },
    });
    cli.child.kill('SIGTERM');
    expect(await cli.exited).toEqual({ code: 0, signal: null });
    expect(isAlive(Number(served[1]))).toBe(false);
  }, 90_000);

  it('serves on PORT when --port is not given, as toolkit start does', async () => {
    const project = track(
      createTempProject({ 'server.js': TINY_APP, 'package.json': '{"type":"module"}' }, [
        'toolkit',
      ]),
    );
    const port = await freePort();
    const cli = watch(
      startCli(['dev', '--no-reload', '-h', '127.0.0.1', '-a', 'server:app'], {
        cwd: project.dir,
        env: cleanEnv({ PORT: String(port) }),
        timeoutMs: 60_000,
      }),
    );
    await cli.waitFor(/server process (\d+)/, 30_000);
    expect(cli.stdout()).toContain(`http://127.0.0.1:${port}`);
    expect((await getJson(`http://127.0.0.1:${port}/health`)).status).toBe(200);
    cli.child.kill('SIGTERM');
    expect(await cli.exited).toEqual({ code: 0, signal: null });
  }, 90_000);

  it('refuses a PORT that is not a port, and says what -h is when it has no host', async () => {
    const project = track(createTempProject({ 'server.js': TINY_APP }, []));
    const badPort = await runCli(['dev', '--no-reload', '-a', 'server:app'], {
      cwd: project.dir,
      env: cleanEnv({ PORT: 'eighty' }),
      timeoutMs: 30_000,
    });
    expect(badPort.code).toBe(1);
    expect(badPort.stderr).toContain('PORT must be an integer from 1 to 65535 (got "eighty")');
    const bareH = await runCli(['dev', '-h'], {
      cwd: project.dir,
      env: cleanEnv(),
      timeoutMs: 30_000,
    });
    expect(bareH.code).toBe(2);
    expect(bareH.stderr).toContain("option '-h, --host <host>' argument missing");
    expect(bareH.stderr).toContain('(-h is --host here; add --help for the help of this command)');
  }, 60_000);

  it('prints a line per request that called an LLM: route, model, tokens, cost, first token', async () => {
    const project = track(
      createTempProject({ 'app.js': LLM_APP, 'package.json': '{"type":"module"}' }, ['toolkit']),
    );
    const port = await freePort();
    const cli = watch(
      startCli(['dev', '--no-reload', '-p', String(port), '-h', '127.0.0.1'], {
        cwd: project.dir,
        env: cleanEnv(),
        timeoutMs: 60_000,
      }),
    );
    await cli.waitFor(/server process (\d+)/, 30_000);
    const base = `http://127.0.0.1:${port}`;
    const post = (path: string, message: string): Promise<Response> =>
      fetch(`${base}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ message }),
      });

    const json = (await (await post('/chat', 'Hello there')).json()) as { usage: Usage };
    const plain = await cli.waitFor(/^POST \/chat {2}.*$/m, 30_000);
    expect(plain[0]).toBe(
      `POST /chat  echo  ${json.usage.inputTokens}→${json.usage.outputTokens} tokens  ${formatUsd(json.usage.costUsd)}`,
    );

    const events = await (await post('/chat/stream', 'Tell me three things')).text();
    // Text chunks are sent as they are; the last event is the usage, as JSON.
    const data = events.split('\n').filter((line) => line.startsWith('data: '));
    const { usage } = JSON.parse(data.at(-1)?.slice('data: '.length) ?? '{}') as { usage: Usage };
    expect(usage.timeToFirstTokenMs).toEqual(expect.any(Number));
    const streamed = await cli.waitFor(/^POST \/chat\/stream {2}.*$/m, 30_000);
    expect(streamed[0]).toBe(
      `POST /chat/stream  echo  ${usage.inputTokens}→${usage.outputTokens} tokens  ${formatUsd(usage.costUsd)}  first token ${Math.round(usage.timeToFirstTokenMs ?? NaN)} ms`,
    );
    // One line per request, none for requests without an LLM call.
    await fetch(`${base}/nowhere`);
    expect(cli.stdout().match(/ tokens {2}/g)).toHaveLength(2);
    cli.child.kill('SIGTERM');
    expect(await cli.exited).toEqual({ code: 0, signal: null });
  }, 90_000);

  it('--no-reload exits 1 when the module does not export the app', async () => {
    const project = track(createTempProject({ 'app.ts': TINY_APP }, ['toolkit']));
    const port = await freePort();
    const result = await runCli(
      ['dev', '--no-reload', '--port', String(port), '--app', 'app:server'],
      {
        cwd: project.dir,
        env: cleanEnv(),
        timeoutMs: 60_000,
      },
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('app.ts does not export "server"');
  }, 90_000);
});
