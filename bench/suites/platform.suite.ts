import { SSE_EVENTS, SSE_EVENTS_VARIABLE, SSE_SPACED_VARIABLE } from '../servers/sse-source.js';
import type { BenchSettings } from '../support/settings.js';
import { drive, driveServer, probe, type RequestSpec, type ServerLoad } from '../support/load.js';
import { interleave, log, withServers } from '../support/rounds.js';
import type { Row } from '../support/row.js';
import { countSseEvents } from '../support/sse-frames.js';

const ECHO: RequestSpec = { path: '/echo', method: 'POST', json: { message: 'hello, world' } };
const EVENTS: RequestSpec = { path: '/events', method: 'POST', json: {} };
const FASTIFY = { TOOLKIT_APP_PLATFORM: 'fastify' };
/** Streams of one event: what a stream costs apart from its events. */
const ONE_EVENT = { [SSE_EVENTS_VARIABLE]: '1' };
/** Streams whose producer yields each event in a turn of the event loop of its own. */
const SPACED = { [SSE_SPACED_VARIABLE]: '1' };

/** Each server with the request it is driven with; toolkit's run on Fastify by configuration. */
const RUNS = {
  toolkitExpress: { script: 'servers/json-toolkit-route.server.js', spec: ECHO },
  toolkitFastify: { script: 'servers/json-toolkit-route.server.js', spec: ECHO, env: FASTIFY },
  nestExpress: { script: 'servers/json-nest.server.js', spec: ECHO },
  nestFastify: { script: 'servers/json-nest-fastify.server.js', spec: ECHO },
  plainFastify: { script: 'servers/json-toolkit-plain.server.js', spec: ECHO, env: FASTIFY },
  parsersFastify: { script: 'servers/json-nest-fastify-parsers.server.js', spec: ECHO },
  streamFastify: { script: 'servers/sse-toolkit.server.js', spec: EVENTS, env: FASTIFY },
  writeFastify: { script: 'servers/sse-nest-fastify-write.server.js', spec: EVENTS },
  interceptedFastify: { script: 'servers/sse-nest-fastify-intercepted.server.js', spec: EVENTS },
  streamOneFastify: {
    script: 'servers/sse-toolkit.server.js',
    spec: EVENTS,
    env: { ...FASTIFY, ...ONE_EVENT },
    events: 1,
  },
  writeOneFastify: {
    script: 'servers/sse-nest-fastify-write.server.js',
    spec: EVENTS,
    env: ONE_EVENT,
    events: 1,
  },
  streamSpacedFastify: {
    script: 'servers/sse-toolkit.server.js',
    spec: EVENTS,
    env: { ...FASTIFY, ...SPACED },
  },
  writeSpacedFastify: {
    script: 'servers/sse-nest-fastify-write.server.js',
    spec: EVENTS,
    env: SPACED,
  },
} as const;
type Run = keyof typeof RUNS;

/** Fails unless every server answers its request as the others do. */
async function checkRuns(urls: Record<Run, string>): Promise<void> {
  for (const [run, { spec }] of Object.entries(RUNS) as [Run, (typeof RUNS)[Run]][]) {
    const answer = await probe(urls[run], spec);
    const ok =
      spec === ECHO
        ? answer.status === 200 && JSON.parse(answer.body).echo === 'hello, world'
        : answer.status === 200 && countSseEvents(answer.body) === eventsOf(run);
    if (!ok) throw new Error(`${run} answered ${answer.status} ${answer.body.slice(0, 200)}`);
  }
}

/** Events per response of a streaming run. */
function eventsOf(run: Run): number {
  const spec = RUNS[run];
  return 'events' in spec ? spec.events : SSE_EVENTS;
}

function row(
  loads: Record<Run, ServerLoad[]>,
  toolkit: Run,
  baseline: Run,
  fields: Omit<Row, 'unit' | 'toolkit' | 'baseline' | 'cpu'>,
): Row {
  const per = RUNS[toolkit].spec === EVENTS ? eventsOf(toolkit) : 1;
  const rate = (run: Run) => loads[run].map((l) => l.requestsPerSec * per);
  const cpu = (run: Run) => loads[run].map((l) => l.cpuMicrosPerRequest / per);
  return {
    ...fields,
    unit: per === 1 ? 'req/s' : 'events/s',
    toolkit: rate(toolkit),
    baseline: rate(baseline),
    cpu: { toolkit: cpu(toolkit), baseline: cpu(baseline) },
  };
}

/**
 * `app.platform: fastify`: toolkit's JSON route on Fastify against the same app on Express and
 * against bare Nest on Fastify, and `@Stream()` on Fastify against bare Nest-Fastify writing the
 * raw response; bare Nest on both platforms for context.
 */
export async function platformSuite(settings: BenchSettings): Promise<Row[]> {
  log('platforms: Express vs Fastify');
  const scripts = Object.fromEntries(
    Object.entries(RUNS).map(([run, { script, ...rest }]) => [
      run,
      { script, ...('env' in rest ? { env: { ...rest.env } } : {}) },
    ]),
  ) as Record<Run, { script: string; env?: Record<string, string> }>;
  const loads = await withServers(scripts, async (servers) => {
    const urls = Object.fromEntries(
      Object.entries(servers).map(([run, server]) => [run, server.url]),
    ) as Record<Run, string>;
    await checkRuns(urls);
    for (const [run, { spec }] of Object.entries(RUNS) as [Run, (typeof RUNS)[Run]][]) {
      await drive(urls[run], spec, settings.warmup, settings.connections);
    }
    return interleave(Object.keys(RUNS) as Run[], settings.rounds, (run) =>
      driveServer(servers[run], RUNS[run].spec, settings.duration, settings.connections),
    );
  });
  return [
    row(loads, 'toolkitFastify', 'toolkitExpress', {
      id: 'platform-json',
      name: 'JSON POST /echo, `@Route`: toolkit on Fastify vs toolkit on Express',
      target: { kind: 'min', value: 2.5 },
    }),
    row(loads, 'toolkitFastify', 'nestFastify', {
      id: 'platform-json-nest',
      name: 'JSON POST /echo on Fastify: `@Route` vs bare Nest `@Body()`',
      target: { kind: 'min', value: 0.95 },
      decomposedBy: ['platform-json-parsers', 'platform-json-plain'],
    }),
    row(loads, 'parsersFastify', 'nestFastify', {
      id: 'platform-json-parsers',
      name: "JSON POST /echo on Fastify: bare Nest with toolkit's body parsers vs bare Nest",
    }),
    row(loads, 'plainFastify', 'nestFastify', {
      id: 'platform-json-plain',
      name: 'JSON POST /echo on Fastify: plain Nest controller in a toolkit `App` vs bare Nest',
    }),
    row(loads, 'streamFastify', 'writeFastify', {
      id: 'platform-sse',
      name: `SSE ${SSE_EVENTS} events on Fastify: \`@Stream()\` vs bare Nest writing \`reply.raw\``,
      target: { kind: 'min', value: 0.95 },
      decomposedBy: ['platform-sse-pipeline', 'platform-sse-one', 'platform-sse-spaced'],
    }),
    row(loads, 'streamSpacedFastify', 'writeSpacedFastify', {
      id: 'platform-sse-spaced',
      name: `SSE ${SSE_EVENTS} events on Fastify, each yielded in a turn of the event loop of its own (nothing to send together): \`@Stream()\` vs bare Nest writing \`reply.raw\``,
    }),
    row(loads, 'streamOneFastify', 'writeOneFastify', {
      id: 'platform-sse-one',
      name: 'SSE of 1 event on Fastify (what a stream costs apart from its events): `@Stream()` vs bare Nest writing `reply.raw`',
    }),
    row(loads, 'interceptedFastify', 'writeFastify', {
      id: 'platform-sse-pipeline',
      name: `SSE ${SSE_EVENTS} events on Fastify: bare Nest writing \`reply.raw\` behind one no-op interceptor vs without (Nest's interceptor pipeline, which every \`@Stream()\` route runs on)`,
    }),
    row(loads, 'nestFastify', 'nestExpress', {
      id: 'platform-json-bare',
      name: 'JSON POST /echo, bare Nest: Fastify vs Express',
    }),
  ];
}
