import { afterEach, describe, expect, it } from '@jest/globals';
import { App, HealthController } from 'toolkit';
import { TestClient } from 'toolkit/testing';
import { dropTable } from '../../providers/test/state/support/backends.js';
import { freePort } from '../../providers/test/state/support/timing.js';

const apps: App[] = [];
afterEach(async () => {
  await Promise.all(apps.splice(0).map((app) => app.close()));
});

function clientFor(
  config: NonNullable<ConstructorParameters<typeof App>[0]>['config'],
): TestClient {
  const app = new App({
    logger: false,
    cwd: '/nonexistent',
    controllers: [HealthController],
    config,
  });
  apps.push(app);
  return new TestClient(app);
}

describe('GET /health/ready', () => {
  it('is ready with the in-process backends, listing each', async () => {
    const res = await clientFor({}).get('/health/ready');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      status: 'ready',
      backends: {
        memory: { backend: 'memory', status: 'up' },
        cache: { backend: 'memory', status: 'up' },
      },
    });
  });

  it('leaves the cache out when it is disabled', async () => {
    const res = await clientFor({ cache: { enabled: false } }).get('/health/ready');
    expect(res.json()).toEqual({
      status: 'ready',
      backends: { memory: { backend: 'memory', status: 'up' } },
    });
  });

  it('answers 503 naming the backend that is down, never its password; /health stays 200', async () => {
    const port = await freePort(); // nothing listens: connection refused
    const client = clientFor({
      memory: { backend: 'redis', redis_url: `redis://:s3cret-pass@127.0.0.1:${port}` },
      cache: { backend: 'memory' },
    });
    const res = await client.get('/health/ready');
    expect(res.statusCode).toBe(503);
    expect(res.headers['retry-after']).toBe('1');
    const body = res.json<{ error: string; status: string; backends: Record<string, unknown> }>();
    expect(body.status).toBe('unavailable');
    expect(body.error).toBe('Not ready: memory (redis) unavailable');
    expect(body.backends).toMatchObject({
      memory: { backend: 'redis', status: 'down' },
      cache: { backend: 'memory', status: 'up' },
    });
    expect(JSON.stringify(body)).toContain(`127.0.0.1:${port}`);
    expect(res.text()).not.toContain('s3cret-pass');
    expect((await client.get('/health')).statusCode).toBe(200);
  });

  it('reports a PostgreSQL memory backend that is up', async () => {
    const prefix = `tk_ready_${process.pid}`;
    const res = await clientFor({
      memory: {
        backend: 'postgres',
        postgres_url: 'postgres://postgres@127.0.0.1:5432/test',
        key_prefix: prefix,
      },
    }).get('/health/ready');
    await dropTable(`${prefix}_memory`);
    expect(res.json()).toMatchObject({
      status: 'ready',
      backends: { memory: { backend: 'postgres', status: 'up' } },
    });
  });
});
