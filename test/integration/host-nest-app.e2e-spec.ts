import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  installedCopies,
  requestJson,
  type GeneratedProject,
} from '../../apps/cli/test/support/generated-project.js';
import { createHostProject, SHARED_WITH_HOST } from './support/host-project.js';
import { startHostServer, type HostServer } from './support/host-server.js';

/**
 * toolkit installed from its packed tarball into a separate, plain Nest application (its own
 * package.json and node_modules) whose AppModule imports `ToolkitModule.forRoot()`: one copy of
 * Nest, the host's own routes unchanged, toolkit's routes working beside them.
 */
describe('toolkit inside an existing Nest application', () => {
  let host: GeneratedProject;

  beforeAll(async () => {
    host = await createHostProject();
  }, 180_000);
  afterAll(() => host?.cleanup());

  it('installs exactly one copy of @nestjs/core and @nestjs/common, the host’s own', () => {
    expect(installedCopies(host, '@nestjs/core')).toEqual(['node_modules/@nestjs/core']);
    expect(installedCopies(host, '@nestjs/common')).toEqual(['node_modules/@nestjs/common']);
    expect(installedCopies(host, 'toolkit')).toEqual(['node_modules/toolkit']);
  });

  it('takes Nest, rxjs and reflect-metadata from the host: toolkit declares them as peers', () => {
    const toolkit = JSON.parse(host.read('node_modules/toolkit/package.json')) as {
      dependencies: Record<string, string>;
      peerDependencies: Record<string, string>;
    };
    for (const name of SHARED_WITH_HOST) {
      expect({ name, dependency: toolkit.dependencies[name] }).toEqual({
        name,
        dependency: undefined,
      });
      expect(toolkit.peerDependencies).toHaveProperty([name]);
    }
  });

  describe('booted with NestFactory.create(AppModule)', () => {
    let server: HostServer | undefined;
    const url = (path: string): string => `${server!.url}${path}`;

    beforeAll(async () => {
      server = await startHostServer(host.path('src'), 'main.js');
    }, 60_000);
    afterAll(() => server?.stop(), 30_000);

    it('boots and listens', () => {
      expect(server?.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    });

    it("answers the host's own route as bare Nest does", async () => {
      const own = await requestJson(url('/own'));
      expect(own).toMatchObject({ status: 200, body: { own: true } });
      expect(own.headers.get('content-type')).toBe('application/json; charset=utf-8');
    });

    it("answers the host's BadRequestException with Nest's default body", async () => {
      expect(await requestJson(url('/bad'))).toMatchObject({
        status: 400,
        body: { message: 'x', error: 'Bad Request', statusCode: 400 },
      });
      const raw = await fetch(url('/bad'));
      expect(await raw.text()).toBe('{"message":"x","error":"Bad Request","statusCode":400}');
    });

    it('binds the @Arg of a toolkit @Route, and answers 422 { error, details } without it', async () => {
      expect(await requestJson(url('/assistant/greet?name=Ada'))).toMatchObject({
        status: 200,
        body: { greeting: 'Hello, Ada' },
      });
      const missing = await requestJson(url('/assistant/greet'));
      expect(missing).toMatchObject({
        status: 422,
        body: {
          error: expect.any(String),
          details: [{ param: 'name', problem: expect.any(String) }],
        },
      });
    });

    it('streams a @Stream route as text/event-stream events', async () => {
      const response = await fetch(url('/assistant/count'));
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
      expect(await response.text()).toBe(
        'event: message\ndata: one\n\nevent: message\ndata: two\n\nevent: message\ndata: three\n\n' +
          // A GET stream's last frame: an EventSource reconnecting with this id gets 204.
          'id: toolkit-end.3\n\n',
      );
    });

    it('answers a @Cache route X-Cache: MISS, then HIT with the same body', async () => {
      const first = await requestJson(url('/assistant/cached'));
      const second = await requestJson(url('/assistant/cached'));
      expect([first.headers.get('x-cache'), second.headers.get('x-cache')]).toEqual([
        'MISS',
        'HIT',
      ]);
      expect([first.body, second.body]).toEqual([{ calls: 1 }, { calls: 1 }]);
    });

    it('injects the configured LLM (the offline echo model without a key)', async () => {
      const answer = await requestJson(url('/assistant/complete?prompt=Hi'));
      expect(answer).toMatchObject({ status: 200, body: { text: expect.any(String) } });
      expect(answer.body).not.toEqual({ text: 'mocked' });
    });
  });

  describe('inside Test.createTestingModule with LLM overridden by MockLLM', () => {
    let server: HostServer | undefined;

    beforeAll(async () => {
      server = await startHostServer(host.path('src'), 'main.testing.js');
    }, 60_000);
    afterAll(() => server?.stop(), 30_000);

    it('answers a toolkit route that calls the injected LLM with the mocked text', async () => {
      expect(await requestJson(`${server!.url}/assistant/complete?prompt=Hi`)).toMatchObject({
        status: 200,
        body: { text: 'mocked' },
      });
    });
  });
});
