import type { BenchSettings } from '../support/settings.js';
import { drive, driveServer, probe, type RequestSpec, type ServerLoad } from '../support/load.js';
import { interleave, log, withServers } from '../support/rounds.js';
import type { Row } from '../support/row.js';

const ECHO: RequestSpec = { path: '/echo', method: 'POST', json: { message: 'hello, world' } };

const rps = (loads: ServerLoad[]): number[] => loads.map((l) => l.requestsPerSec);
const cpu = (loads: ServerLoad[]): number[] => loads.map((l) => l.cpuMicrosPerRequest);

/** JSON `POST /echo`: toolkit `@Route` and `app.route` vs bare Nest `@Body()` (and raw node:http). */
export async function jsonSuite(settings: BenchSettings): Promise<Row[]> {
  log('JSON POST /echo');
  const values = await withServers(
    {
      route: { script: 'servers/json-toolkit-route.server.js' },
      functional: { script: 'servers/json-toolkit-functional.server.js' },
      nest: { script: 'servers/json-nest.server.js' },
      intercepted: { script: 'servers/json-nest-interceptor.server.js' },
      node: { script: 'servers/json-node-http.server.js' },
    },
    async (servers) => {
      for (const server of Object.values(servers)) {
        const answer = await probe(server.url, ECHO);
        if (answer.status !== 200 || JSON.parse(answer.body).echo !== 'hello, world') {
          throw new Error(`${server.name} answered ${answer.status} ${answer.body}`);
        }
        await drive(server.url, ECHO, settings.warmup, settings.connections);
      }
      return interleave(
        ['route', 'functional', 'nest', 'intercepted', 'node'] as const,
        settings.rounds,
        (key) => driveServer(servers[key], ECHO, settings.duration, settings.connections),
      );
    },
  );
  return [
    {
      id: 'json-route',
      name: 'JSON POST /echo: `@Route` vs Nest `@Body()`',
      unit: 'req/s',
      toolkit: rps(values.route),
      baseline: rps(values.nest),
      cpu: { toolkit: cpu(values.route), baseline: cpu(values.nest) },
      target: { kind: 'min', value: 0.95 },
    },
    {
      id: 'json-functional',
      name: 'JSON POST /echo: `app.route` vs Nest `@Body()`',
      unit: 'req/s',
      toolkit: rps(values.functional),
      baseline: rps(values.nest),
      cpu: { toolkit: cpu(values.functional), baseline: cpu(values.nest) },
      target: { kind: 'min', value: 0.95 },
    },
    {
      id: 'json-interceptor',
      name: 'JSON POST /echo: Nest + 1 no-op global interceptor vs Nest',
      unit: 'req/s',
      toolkit: rps(values.intercepted),
      baseline: rps(values.nest),
      cpu: { toolkit: cpu(values.intercepted), baseline: cpu(values.nest) },
    },
    {
      id: 'json-node',
      name: 'JSON POST /echo: `@Route` vs raw `node:http`',
      unit: 'req/s',
      toolkit: rps(values.route),
      baseline: rps(values.node),
      cpu: { toolkit: cpu(values.route), baseline: cpu(values.node) },
    },
  ];
}
