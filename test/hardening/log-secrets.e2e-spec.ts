/**
 * README: "Keys never appear in logs or answers." A real app process (`toolkit start`, debug
 * logging on) runs with provider keys set, its providers pointed at the local fake LLM server,
 * and a Redis URL with a password; requests go through successes, provider errors (401, 429,
 * 500), a stream cut mid-answer, a memory backend that is down, bad input and an unknown path.
 * Every line it writes to stdout and stderr is captured and searched for each secret.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  assertCliBuilt,
  freePort,
  startCli,
  type CliProcess,
} from '../../apps/cli/test/support/cli-process.js';
import { cleanEnv } from '../../apps/cli/test/support/dev-helpers.js';
import { createTempProject, type TempProject } from '../../apps/cli/test/support/temp-project.js';
import {
  startFakeLlmServer,
  type FakeLlmServer,
} from '../../libs/providers/test/support/fake-llm.server.js';

const OPENAI_KEY = 'sk-proj-LOGTEST-7f3a9c2e41b84d0f9e6a';
const ANTHROPIC_KEY = 'sk-ant-api03-LOGTEST-5d8e2b7c90a14f3e';
const REDIS_PASSWORD = 'redis-LOGTEST-pass-81c4e2';
const SECRETS = [OPENAI_KEY, ANTHROPIC_KEY, REDIS_PASSWORD];

const APP = `import { App, LLM } from 'toolkit';

export const app = new App({ title: 'keys', version: '1.0.0' });
const openai = new LLM('gpt-4o-mini');
const claude = new LLM('claude-3-5-haiku-latest');

app.route('/health', { methods: ['GET'] }, () => ({ status: 'healthy' }));
app.route('/openai', { methods: ['POST'], params: { message: 'string' } }, async ({ message }) => ({
  text: await openai.chat(message),
}));
app.route('/claude', { methods: ['POST'], params: { message: 'string' } }, async ({ message }) => ({
  text: await claude.chat(message),
}));
app.route('/stream', { methods: ['POST'], params: { message: 'string' }, stream: true },
  ({ message }, { signal }) => openai.chat(message, { stream: true, signal }));
app.route('/remember', { methods: ['POST'], params: { user_id: 'string', message: 'string' } },
  async ({ user_id, message }) => {
    await app.memory(user_id).addTurn(message, 'noted');
    return { ok: true };
  });
`;

describe('logs of a real app run with provider keys set', () => {
  let fake: FakeLlmServer;
  let project: TempProject;
  let cli: CliProcess;
  let base: string;

  beforeAll(async () => {
    assertCliBuilt();
    fake = await startFakeLlmServer();
    const redisPort = await freePort(); // nothing listens: the memory backend is down
    project = createTempProject(
      {
        'app.ts': APP,
        'package.json': JSON.stringify({ name: 'keys', type: 'module' }),
        'toolkit.yaml': [
          'app:',
          '  debug: true',
          '  log_format: json',
          '  access_log: true',
          'llm:',
          '  max_retries: 0',
          'memory:',
          '  backend: redis',
          `  redis_url: redis://:${REDIS_PASSWORD}@127.0.0.1:${redisPort}`,
          '',
        ].join('\n'),
      },
      ['toolkit'],
    );
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    cli = startCli(['start', '--port', String(port), '--host', '127.0.0.1'], {
      cwd: project.dir,
      env: cleanEnv({
        OPENAI_API_KEY: OPENAI_KEY,
        ANTHROPIC_API_KEY: ANTHROPIC_KEY,
        OPENAI_BASE_URL: fake.openaiBaseURL,
        ANTHROPIC_BASE_URL: fake.anthropicBaseURL,
        DEBUG: 'true',
      }),
      timeoutMs: 90_000,
    });
    await cli.waitFor(/Serving keys/, 45_000);
  }, 60_000);

  afterAll(async () => {
    if (cli.child.exitCode === null) cli.child.kill('SIGKILL');
    project.cleanup();
    await fake.close();
  });

  const post = async (
    path: string,
    json: unknown,
    headers: Record<string, string> = {},
  ): Promise<{ status: number; text: string }> => {
    const res = await fetch(`${base}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(json),
    });
    return { status: res.status, text: await res.text() };
  };

  it('never writes a key or password, through successes and every kind of failure', async () => {
    const answers: Array<[string, number, string]> = [];
    const record = async (label: string, run: Promise<{ status: number; text: string }>) => {
      const { status, text } = await run;
      answers.push([label, status, text]);
      return status;
    };

    expect(await record('openai ok', post('/openai', { message: 'hi' }))).toBe(200);
    expect(await record('claude ok', post('/claude', { message: 'hi' }))).toBe(200);
    fake.script({ kind: 'error', status: 401, message: 'Incorrect API key provided' });
    expect(await record('key rejected', post('/openai', { message: 'hi' }))).toBe(502);
    // Three of each: the SDK's own retries (two) meet the same failure.
    const thrice = <T>(step: T): T[] => [step, step, step];
    fake.script(
      ...thrice({ kind: 'error', status: 429, headers: { 'retry-after': '0' } } as const),
    );
    expect(await record('rate limited', post('/openai', { message: 'hi' }))).toBe(429);
    fake.script(...thrice({ kind: 'error', status: 500 } as const));
    expect(await record('provider 500', post('/openai', { message: 'hi' }))).toBe(502);
    fake.script({ when: { api: 'anthropic' }, kind: 'error', status: 401 });
    expect(await record('claude key rejected', post('/claude', { message: 'hi' }))).toBe(502);
    fake.script({ kind: 'drop-after', chunks: ['Once', ' upon'] });
    expect(await record('stream cut', post('/stream', { message: 'story' }))).toBe(200);
    expect(await record('memory down', post('/remember', { user_id: 'u', message: 'm' }))).toBe(
      503,
    );
    expect(await record('bad input', post('/openai', { message: 42 }))).toBe(422);
    expect(await record('unknown path', post('/nope', {}))).toBe(404);
    // Secrets a client sends: in a header, the query string, the path, an untrusted request id.
    const carried = post(
      `/openai?api_key=${OPENAI_KEY}`,
      { message: 'hi' },
      {
        authorization: `Bearer ${ANTHROPIC_KEY}`,
        'x-request-id': `id-${REDIS_PASSWORD}`,
      },
    );
    expect(await record('secrets sent', carried)).toBe(200);
    expect(await record('secret path', post(`/nope/${OPENAI_KEY}`, {}))).toBe(404);

    // The keys were really set and used: the providers received them.
    const openaiAuth = fake.requests.find((r) => r.api === 'openai-chat')?.headers.authorization;
    expect(openaiAuth).toBe(`Bearer ${OPENAI_KEY}`);
    const anthropic = fake.requests.find((r) => r.api === 'anthropic-messages')?.headers;
    expect([anthropic?.['x-api-key'], anthropic?.authorization?.replace(/^Bearer /, '')]).toContain(
      ANTHROPIC_KEY,
    );

    cli.child.kill('SIGTERM');
    await cli.exited;
    const logs = `${cli.stdout()}\n${cli.stderr()}`;
    // The run did log its failures (so there was something to leak).
    expect(logs).toMatch(/502|Bad Gateway|rejected|invalid/i);
    expect(logs).toMatch(/redis/i);
    // ...and an access line per request, with the route pattern, never the path or query.
    const lines = logs.split('\n').filter((line) => line.startsWith('{'));
    const access = lines
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((line) => line.context === 'Access');
    expect(access.length).toBeGreaterThanOrEqual(answers.length);
    expect(access).toContainEqual(expect.objectContaining({ route: '/openai', status: 200 }));
    expect(access).toContainEqual(expect.objectContaining({ route: null, status: 404 }));
    // Every secret carries the marker LOGTEST: a truncated or partly masked key still shows it.
    expect(logs).not.toContain('LOGTEST');
    for (const secret of SECRETS) {
      expect({ secret, inLogs: logs.includes(secret) }).toEqual({ secret, inLogs: false });
      for (const [label, , text] of answers) {
        expect({ label, secret, inAnswer: text.includes(secret) }).toEqual({
          label,
          secret,
          inAnswer: false,
        });
      }
    }
  }, 90_000);
});
