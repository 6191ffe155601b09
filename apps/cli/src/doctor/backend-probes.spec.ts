import { describe, expect, it } from '@jest/globals';
import { probeVector, type VectorState } from './backend-probes.js';

const URL = 'postgres://app@db:5432/app';
const state = (overrides: Partial<VectorState>): VectorState => ({
  database: 'app',
  user: 'app',
  major: '15',
  installed: null,
  available: '0.8.0',
  can_create: false,
  ...overrides,
});
/** A pool whose one query answers `rows` (or fails with `error`). */
const pool = (rows: VectorState[], error?: Error) => ({
  query: <R>(): Promise<{ rows: R[] }> =>
    error ? Promise.reject(error) : Promise.resolve({ rows: rows as unknown as R[] }),
});

describe('probeVector', () => {
  it('is ok when the extension is created in the database', async () => {
    const check = await probeVector(pool([state({ installed: '0.7.4' })]), 'rag.postgres_url', URL);
    expect(check).toMatchObject({ status: 'ok', detail: expect.stringContaining('vector 0.7.4') });
  });

  it('names the server package to install when pgvector is not on the server', async () => {
    const check = await probeVector(
      pool([state({ available: null, major: '16' })]),
      'rag.postgres_url',
      URL,
    );
    expect(check.status).toBe('fail');
    expect(check.detail).toBe(
      `${URL} has no pgvector extension installed on the server (rag.postgres_url)`,
    );
    expect(check.fix).toContain('apt-get install postgresql-16-pgvector');
    expect(check.fix).toContain('CREATE EXTENSION vector; in database "app"');
  });

  it('warns when the user may create it, fails with the superuser fix when not', async () => {
    const creatable = await probeVector(pool([state({ can_create: true })]), 'k', URL);
    expect(creatable.status).toBe('warn');
    const blocked = await probeVector(pool([state({})]), 'k', URL);
    expect(blocked.status).toBe('fail');
    expect(blocked.fix).toMatch(/^as a superuser, run CREATE EXTENSION vector; in database "app"/);
  });

  it('turns a failed catalogue query into one line', async () => {
    const check = await probeVector(pool([], new Error('permission denied\nDETAIL: x')), 'k', URL);
    expect(check).toMatchObject({ status: 'fail', name: 'pgvector' });
    expect(check.detail).toMatch(/: permission denied$/);
  });
});
