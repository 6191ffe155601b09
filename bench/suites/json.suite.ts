import type { BenchSettings } from '../support/settings.js';
import { drive, driveServer, probe, type RequestSpec, type ServerLoad } from '../support/load.js';
import { interleave, log, withServers } from '../support/rounds.js';
import type { Row } from '../support/row.js';

const ECHO: RequestSpec = { path: '/echo', method: 'POST', json: { message: 'hello, world' } };
/** A body whose `message` is not a string: servers that check their parameter must refuse it. */
const WRONG_TYPE: RequestSpec = { path: '/echo', method: 'POST', json: { message: 42 } };

const SERVERS = {
  route: { script: 'servers/json-toolkit-route.server.js' },
  functional: { script: 'servers/json-toolkit-functional.server.js' },
  plain: { script: 'servers/json-toolkit-plain.server.js' },
  nest: { script: 'servers/json-nest.server.js' },
  validated: { script: 'servers/json-nest-validation.server.js' },
  intercepted: { script: 'servers/json-nest-interceptor.server.js' },
  node: { script: 'servers/json-node-http.server.js' },
};
type Key = keyof typeof SERVERS;
const CHECKED: readonly Key[] = ['route', 'functional', 'validated'];

/** A row comparing two servers of this suite by req/s and server CPU per request. */
function compare(
  values: Record<Key, ServerLoad[]>,
  toolkit: Key,
  baseline: Key,
  row: Omit<Row, 'unit' | 'toolkit' | 'baseline' | 'cpu'>,
): Row {
  return {
    ...row,
    unit: 'req/s',
    toolkit: values[toolkit].map((l) => l.requestsPerSec),
    baseline: values[baseline].map((l) => l.requestsPerSec),
    cpu: {
      toolkit: values[toolkit].map((l) => l.cpuMicrosPerRequest),
      baseline: values[baseline].map((l) => l.cpuMicrosPerRequest),
    },
  };
}

/** Checks every server answers the echo, and the checking ones refuse a wrong type. */
async function checkServers(servers: Record<Key, { name: string; url: string }>): Promise<void> {
  for (const [key, server] of Object.entries(servers) as [Key, { name: string; url: string }][]) {
    const answer = await probe(server.url, ECHO);
    if (answer.status !== 200 || JSON.parse(answer.body).echo !== 'hello, world') {
      throw new Error(`${server.name} answered ${answer.status} ${answer.body}`);
    }
    if (!CHECKED.includes(key)) continue;
    const refused = await probe(server.url, WRONG_TYPE);
    if (refused.status < 400 || refused.status >= 500) {
      throw new Error(`${server.name} accepted a non-string message (${refused.status})`);
    }
  }
}

/**
 * JSON `POST /echo`: toolkit `@Route` and `app.route` vs bare Nest `@Body()` and vs Nest with a
 * global `ValidationPipe` + DTO; a plain Nest controller inside a toolkit `App` vs bare Nest;
 * "Nest + one no-op interceptor" and raw node:http for context.
 */
export async function jsonSuite(settings: BenchSettings): Promise<Row[]> {
  log('JSON POST /echo');
  const values = await withServers(SERVERS, async (servers) => {
    await checkServers(servers);
    for (const server of Object.values(servers)) {
      await drive(server.url, ECHO, settings.warmup, settings.connections);
    }
    return interleave(Object.keys(SERVERS) as Key[], settings.rounds, (key) =>
      driveServer(servers[key], ECHO, settings.duration, settings.connections),
    );
  });
  const parts = ['json-plain-app', 'json-interceptor'];
  return [
    compare(values, 'route', 'nest', {
      id: 'json-route',
      name: 'JSON POST /echo: `@Route` vs Nest `@Body()`',
      target: { kind: 'min', value: 0.95 },
      decomposedBy: parts,
    }),
    compare(values, 'functional', 'nest', {
      id: 'json-functional',
      name: 'JSON POST /echo: `app.route` vs Nest `@Body()`',
      target: { kind: 'min', value: 0.95 },
      decomposedBy: parts,
    }),
    compare(values, 'route', 'validated', {
      id: 'json-route-validated',
      name: 'JSON POST /echo: `@Route` vs Nest `ValidationPipe` + DTO',
      target: { kind: 'min', value: 1 },
      decomposedBy: ['json-plain-app'],
    }),
    compare(values, 'functional', 'validated', {
      id: 'json-functional-validated',
      name: 'JSON POST /echo: `app.route` vs Nest `ValidationPipe` + DTO',
      target: { kind: 'min', value: 1 },
      decomposedBy: ['json-plain-app'],
    }),
    compare(values, 'plain', 'nest', {
      id: 'json-plain-app',
      name: 'JSON POST /echo: plain Nest controller in a toolkit `App` vs in bare Nest',
      target: { kind: 'min', value: 0.97 },
    }),
    compare(values, 'intercepted', 'nest', {
      id: 'json-interceptor',
      name: 'JSON POST /echo: Nest + 1 no-op global interceptor vs Nest',
    }),
    compare(values, 'route', 'node', {
      id: 'json-node',
      name: 'JSON POST /echo: `@Route` vs raw `node:http`',
    }),
  ];
}
