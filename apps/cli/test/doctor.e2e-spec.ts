import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createServer, type Server } from 'node:net';
import pg from 'pg';
import { assertCliBuilt, freePort, runCli } from './support/cli-process.js';
import { installFakeClients, minimalPath } from './support/fake-clients.js';
import { createTempProject, type TempProject } from './support/temp-project.js';

const SECRET = 'sk-doctor-secret-4242';
/** The test server (trust auth); each run creates its own database and role there. */
const ADMIN_URL = 'postgres://postgres@127.0.0.1:5432/test';
const NOVECTOR_DB = `toolkit_doctor_novector_${process.pid}`;
const NOVECTOR_ROLE = `toolkit_doctor_plain_${process.pid}`;

/** Runs statements on the test server as its superuser. */
async function admin(...statements: string[]): Promise<void> {
  const client = new pg.Client({ connectionString: ADMIN_URL });
  await client.connect();
  try {
    for (const statement of statements) await client.query(statement);
  } finally {
    await client.end();
  }
}
/** The environment of a user without provider keys or backend variables. */
const baseEnv = (): NodeJS.ProcessEnv => {
  const env = { ...process.env };
  for (const name of Object.keys(env))
    if (/_API_KEY$|^REDIS_URL$|^DATABASE_URL$|^PORT$|^TOOLKIT_/.test(name)) delete env[name];
  return env;
};

describe('toolkit doctor', () => {
  const projects: TempProject[] = [];
  const project = (files: Record<string, string>): TempProject => {
    const created = createTempProject(files);
    projects.push(created);
    return created;
  };
  let busy: Server;
  let busyPort: number;

  beforeAll(async () => {
    assertCliBuilt();
    busy = createServer();
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
    busyPort = (busy.address() as { port: number }).port;
  });
  afterAll(() => {
    busy.close();
    projects.forEach((created) => created.cleanup());
  });

  const doctor = async (dir: string, args: string[], env: NodeJS.ProcessEnv = baseEnv()) => {
    const port = await freePort();
    return runCli(['doctor', '--port', String(port), ...args], { cwd: dir, env });
  };

  it('passes a fresh project: node, config, the offline model (a warning) and a free port', async () => {
    const result = await doctor(project({}).dir, []);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^ok +node +v\d+\.\d+\.\d+ \(supported: /m);
    expect(result.stdout).toMatch(/^ok +config +toolkit\.yaml, \.env and TOOLKIT_\* are valid/m);
    expect(result.stdout).toMatch(/^warn +model +llm\.default_model auto = echo .* - fix: /m);
    expect(result.stdout).toMatch(/^ok +port +127\.0\.0\.1:\d+ is free$/m);
    expect(result.stdout).toMatch(/All checks passed\.\n$/);
  });

  it('names the model, the rule and whether its key is set, never the key itself', async () => {
    const dir = project({
      '.env': `OPENAI_API_KEY=${SECRET}\n`,
      'toolkit.yaml': 'llm:\n  default_provider: openai\n',
    }).dir;
    const result = await doctor(dir, []);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(
      /^ok +model +llm\.default_model auto = gpt-4o-mini .* -> OpenAI gpt-4o-mini, by rule gpt-\*, OPENAI_API_KEY set$/m,
    );
    const explained = await doctor(dir, ['--model', 'claude-3-5-haiku-latest']);
    expect(explained.code).toBe(1);
    expect(explained.stdout).toMatch(
      /^FAIL model +model claude-3-5-haiku-latest -> Anthropic .*by rule claude-\*, ANTHROPIC_API_KEY not set - fix: put ANTHROPIC_API_KEY=<your key> in \.env$/m,
    );
    // With default_provider: openai any name resolves; without it an unknown name fails.
    const viaDefault = await doctor(dir, ['--model', 'nonsense-model']);
    expect(viaDefault.stdout).toMatch(
      /^ok +model +model nonsense-model -> OpenAI .*by rule llm\.default_provider/m,
    );
    const unknown = await doctor(project({}).dir, ['--model', 'nonsense-model']);
    expect(unknown.code).toBe(1);
    expect(unknown.stdout).toMatch(/^FAIL model +.*nonsense-model/m);
    for (const output of [result, explained, unknown]) {
      expect(output.stdout + output.stderr).not.toContain(SECRET);
    }
  });

  it('fails on a dead Redis with one line naming it and the fix, no stack trace', async () => {
    const deadPort = await freePort();
    const dir = project({
      'toolkit.yaml': `memory:\n  backend: redis\n  redis_url: redis://127.0.0.1:${deadPort}\n`,
    }).dir;
    const result = await doctor(dir, []);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(
      new RegExp(
        `^FAIL redis +redis://127\\.0\\.0\\.1:${deadPort} unreachable \\(memory\\.redis_url\\): .*ECONNREFUSED.* - fix: start Redis`,
        'm',
      ),
    );
    expect(result.stdout).toMatch(/1 check failed\.\n$/);
    expect(result.stdout + result.stderr).not.toMatch(/\n\s+at /);
  });

  it('reports the round trip of live Redis and PostgreSQL with pgvector', async () => {
    const dir = project({
      'toolkit.yaml':
        'memory:\n  backend: redis\n' +
        'rag:\n  store: pgvector\n  postgres_url: postgres://postgres@127.0.0.1:5432/test\n',
    }).dir;
    const result = await doctor(dir, []);
    expect(result.stdout).toMatch(
      /^ok +redis +redis:\/\/127\.0\.0\.1:6379 answered PING .*\(\d+ ms\)$/m,
    );
    expect(result.stdout).toMatch(
      /^ok +postgres +postgres:\/\/postgres@127\.0\.0\.1:5432\/test answered SELECT 1 .*\(\d+ ms\)$/m,
    );
    expect(result.stdout).toMatch(/^ok +pgvector +vector \d+\.\d+/m);
    expect(result.code).toBe(0);
  });

  describe('a PostgreSQL database without pgvector', () => {
    beforeAll(() =>
      admin(
        `DROP DATABASE IF EXISTS ${NOVECTOR_DB}`,
        `DROP ROLE IF EXISTS ${NOVECTOR_ROLE}`,
        `CREATE DATABASE ${NOVECTOR_DB}`,
        `CREATE ROLE ${NOVECTOR_ROLE} LOGIN`,
      ),
    );
    afterAll(() =>
      admin(`DROP DATABASE IF EXISTS ${NOVECTOR_DB}`, `DROP ROLE IF EXISTS ${NOVECTOR_ROLE}`),
    );

    const ragProject = (user: string): string =>
      project({
        'toolkit.yaml': `rag:\n  store: pgvector\n  postgres_url: postgres://${user}@127.0.0.1:5432/${NOVECTOR_DB}\n`,
      }).dir;

    it('fails when the user may not create the extension, naming the database and the fix', async () => {
      const result = await doctor(ragProject(NOVECTOR_ROLE), []);
      expect(result.code).toBe(1);
      expect(result.stdout).toMatch(/^ok +postgres +.* answered SELECT 1/m);
      const line = result.stdout.split('\n').filter((text) => / pgvector /.test(text));
      expect(line).toHaveLength(1);
      expect(line[0]).toMatch(
        new RegExp(
          `^FAIL pgvector +vector \\S+ is not created in database "${NOVECTOR_DB}" .*\\(rag\\.postgres_url\\), ` +
            `and user "${NOVECTOR_ROLE}" may not create it - fix: as a superuser, run CREATE EXTENSION vector; in database "${NOVECTOR_DB}"`,
        ),
      );
      expect(result.stdout).toMatch(/1 check failed\.\n$/);
      expect(result.stdout + result.stderr).not.toMatch(/\n\s+at /);
    });

    it('warns when the store will create it on first use (a superuser), without failing', async () => {
      const result = await doctor(ragProject('postgres'), []);
      expect(result.code).toBe(0);
      expect(result.stdout).toMatch(
        new RegExp(
          `^warn pgvector +vector \\S+ is available but not created in database "${NOVECTOR_DB}" .*` +
            'the store runs CREATE EXTENSION vector on first use .* - fix: ',
          'm',
        ),
      );
    });
  });

  it('fails on a malformed toolkit.yaml naming the file, and hides URL passwords', async () => {
    const result = await doctor(project({ 'toolkit.yaml': 'memory:\n  backend: [x\n' }).dir, []);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/^FAIL config +.*is not valid YAML.*toolkit\.yaml/m);
    expect(result.stdout + result.stderr).not.toMatch(/\n\s+at /);

    const badKey = await doctor(project({ 'toolkit.yaml': 'memory:\n  backend: mongo\n' }).dir, []);
    expect(badKey.stdout).toMatch(/^FAIL config +.*memory\.backend/m);

    const deadPort = await freePort();
    const secretUrl = project({
      'toolkit.yaml': `memory:\n  backend: redis\n  redis_url: redis://:hunter2@127.0.0.1:${deadPort}\n`,
    }).dir;
    const redacted = await doctor(secretUrl, []);
    expect(redacted.stdout).toContain(`redis://:***@127.0.0.1:${deadPort}`);
    expect(redacted.stdout).not.toContain('hunter2');
  });

  it('fails when the port is in use, suggesting another', async () => {
    const result = await runCli(['doctor', '--port', String(busyPort)], {
      cwd: project({}).dir,
      env: baseEnv(),
    });
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(
      new RegExp(
        `^FAIL port +127\\.0\\.0\\.1:${busyPort} is in use - fix: .*--port ${busyPort + 1}`,
        'm',
      ),
    );
    expect(result.stdout).toMatch(/1 check failed\.\n$/);
    expect(result.stdout + result.stderr).not.toMatch(/\n\s+at /);
  });

  describe('--platform', () => {
    /** A fake client that answers `--version` like the real one does, and logs every call. */
    const withFakeClient = (
      name: string,
      version: string,
    ): { dir: string; env: NodeJS.ProcessEnv } => {
      const created = project({});
      const bin = installFakeClients(created, [name]);
      return {
        dir: created.dir,
        env: {
          ...baseEnv(),
          PATH: `${bin}:${minimalPath()}`,
          FAKE_CLIENT_LOG: created.path('calls.log'),
          FAKE_CLIENT_OUTPUT: version,
        },
      };
    };

    it('finds the deploy client on PATH by platform or alias and reports its version', async () => {
      const fly = withFakeClient('fly', 'fly v0.3.99 linux/amd64');
      const result = await doctor(fly.dir, ['--platform', 'FLY'], fly.env);
      expect(result.code).toBe(0);
      expect(result.stdout).toMatch(
        /^ok +client +fly v0\.3\.99 linux\/amd64 at \/\S+\/fake-bin\/fly \(toolkit deploy vmhost\)$/m,
      );
      const vercel = withFakeClient('vercel', '41.2.0');
      const serverless = await doctor(vercel.dir, ['--platform', 'serverless'], vercel.env);
      expect(serverless.stdout).toMatch(
        /^ok +client +vercel 41\.2\.0 at \S+ \(toolkit deploy serverless\)$/m,
      );
    });

    it('fails with the install command when the client is missing; cloudguide needs none', async () => {
      const env = { ...baseEnv(), PATH: minimalPath() };
      const dir = project({}).dir;
      const heroku = await doctor(dir, ['--platform', 'heroku'], env);
      expect(heroku.code).toBe(1);
      expect(heroku.stdout).toMatch(
        /^FAIL client +heroku not found on PATH \(toolkit deploy githost runs it\) - fix: install it: npm install --global heroku/m,
      );
      expect(heroku.stdout).toMatch(/1 check failed\.\n$/);
      expect(heroku.stdout + heroku.stderr).not.toMatch(/\n\s+at /);
      const aws = await doctor(dir, ['--platform', 'aws', '--json'], env);
      expect(aws.code).toBe(0);
      const report = JSON.parse(aws.stdout) as { checks: Array<{ name: string; status: string }> };
      expect(report.checks.at(-1)).toMatchObject({ name: 'client', status: 'ok' });
    });

    it('is a usage error (exit 2) naming the platforms for an unknown one', async () => {
      const result = await doctor(project({}).dir, ['--platform', 'nowhere']);
      expect(result.code).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr).toMatch(
        /Unknown platform "nowhere"; choose one of vmhost \(fly\), githost \(heroku\), serverless \(vercel\), cloudguide \(aws\)/,
      );
    });
  });

  it('prints JSON for scripts with --json', async () => {
    const result = await doctor(project({ 'toolkit.yaml': 'app:\n  debug: maybe\n' }).dir, [
      '--json',
    ]);
    expect(result.code).toBe(1);
    const report = JSON.parse(result.stdout) as {
      ok: boolean;
      checks: Array<{ name: string; status: string }>;
    };
    expect(report.ok).toBe(false);
    expect(report.checks.map((check) => [check.name, check.status])).toEqual([
      ['node', 'ok'],
      ['config', 'fail'],
      ['port', 'ok'],
    ]);
  });
});
