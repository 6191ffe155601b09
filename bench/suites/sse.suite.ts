import { SSE_EVENTS, SSE_SPACED_VARIABLE } from '../servers/sse-source.js';
import type { BenchSettings } from '../support/settings.js';
import {
  drive,
  driveServer,
  probe,
  timeToFirstByte,
  type RequestSpec,
  type ServerLoad,
} from '../support/load.js';
import { interleave, log, withServers } from '../support/rounds.js';
import type { Row } from '../support/row.js';
import type { ServerProcess } from '../support/server-process.js';
import { countSseEvents } from '../support/sse-frames.js';

const POST_EVENTS: RequestSpec = { path: '/events', method: 'POST', json: {} };
const GET_EVENTS: RequestSpec = { path: '/events', method: 'GET' };
/** Sequential requests per round for the time-to-first-event row. */
export const FIRST_EVENT_SAMPLES = 100;

/**
 * What is measured, each with its own server and request: toolkit is driven with the method of
 * the baseline it is compared with (Nest's `@Sse()` only answers GET).
 */
const RUNS = {
  toolkitPost: { server: 'toolkit', spec: POST_EVENTS },
  nestWrite: { server: 'nestWrite', spec: POST_EVENTS },
  toolkitGet: { server: 'toolkit', spec: GET_EVENTS },
  nestSse: { server: 'nestSse', spec: GET_EVENTS },
  pumpOnly: { server: 'pumpOnly', spec: POST_EVENTS },
  toolkitSpaced: { server: 'toolkitSpaced', spec: POST_EVENTS },
  nestWriteSpaced: { server: 'nestWriteSpaced', spec: POST_EVENTS },
} as const;
type Run = keyof typeof RUNS;
type ServerKey = (typeof RUNS)[Run]['server'];

/** Fails unless every run's answer is a 200 carrying exactly {@link SSE_EVENTS} events. */
async function checkRuns(servers: Record<ServerKey, ServerProcess>): Promise<void> {
  for (const [run, { server, spec }] of Object.entries(RUNS)) {
    const answer = await probe(servers[server].url, spec);
    const events = countSseEvents(answer.body);
    if (answer.status !== 200 || events !== SSE_EVENTS) {
      throw new Error(`${run}: ${spec.method} answered ${answer.status} with ${events} events`);
    }
  }
}

function sseRow(
  loads: Record<Run, ServerLoad[]>,
  toolkit: Run,
  baseline: Run,
  row: Omit<Row, 'unit' | 'toolkit' | 'baseline' | 'cpu'>,
): Row {
  const eventsPerSec = (run: Run): number[] => loads[run].map((l) => l.requestsPerSec * SSE_EVENTS);
  const cpuPerEvent = (run: Run): number[] =>
    loads[run].map((l) => l.cpuMicrosPerRequest / SSE_EVENTS);
  return {
    ...row,
    unit: 'events/s',
    toolkit: eventsPerSec(toolkit),
    baseline: eventsPerSec(baseline),
    cpu: { toolkit: cpuPerEvent(toolkit), baseline: cpuPerEvent(baseline) },
  };
}

/** Servers whose producer yields each event in a turn of the event loop of its own. */
const SPACED = { [SSE_SPACED_VARIABLE]: '1' };

/**
 * SSE, 200 events of 20 bytes per request: `@Stream()` vs bare Nest writing to the response
 * (POST) and vs Nest's own `@Sse()` (GET); the first pair again with each event in its own turn
 * of the event loop, and time to first event, for context.
 */
export async function sseSuite(settings: BenchSettings): Promise<Row[]> {
  log(`SSE ${SSE_EVENTS} events per request`);
  return withServers(
    {
      toolkit: { script: 'servers/sse-toolkit.server.js' },
      nestWrite: { script: 'servers/sse-nest-write.server.js' },
      nestSse: { script: 'servers/sse-nest-decorator.server.js' },
      pumpOnly: { script: 'servers/sse-toolkit-pump.server.js' },
      toolkitSpaced: { script: 'servers/sse-toolkit.server.js', env: SPACED },
      nestWriteSpaced: { script: 'servers/sse-nest-write.server.js', env: SPACED },
    },
    async (servers) => {
      await checkRuns(servers);
      for (const { server, spec } of Object.values(RUNS)) {
        await drive(servers[server].url, spec, settings.warmup, settings.connections);
      }
      const loads = await interleave(Object.keys(RUNS) as Run[], settings.rounds, (run) =>
        driveServer(
          servers[RUNS[run].server],
          RUNS[run].spec,
          settings.duration,
          settings.connections,
        ),
      );
      log('SSE time to first event');
      const firstEvent = await interleave(
        ['toolkitPost', 'nestWrite'] as const,
        settings.rounds,
        (run) =>
          timeToFirstByte(servers[RUNS[run].server].url, RUNS[run].spec, FIRST_EVENT_SAMPLES),
      );
      return [
        sseRow(loads, 'toolkitPost', 'nestWrite', {
          id: 'sse',
          name: `SSE ${SSE_EVENTS} × 20 B (POST): \`@Stream()\` vs Nest \`res.write\``,
          target: { kind: 'min', value: 0.95 },
          decomposedBy: ['sse-pump-only', 'sse-interceptor-path', 'sse-spaced'],
        }),
        sseRow(loads, 'toolkitSpaced', 'nestWriteSpaced', {
          id: 'sse-spaced',
          name: `SSE ${SSE_EVENTS} × 20 B (POST), each event yielded in a turn of the event loop of its own (nothing to send together): \`@Stream()\` vs Nest \`res.write\``,
        }),
        sseRow(loads, 'toolkitGet', 'nestSse', {
          id: 'sse-nest-sse',
          name: `SSE ${SSE_EVENTS} × 20 B (GET): \`@Stream()\` vs Nest \`@Sse()\``,
          target: { kind: 'min', value: 2 },
        }),
        sseRow(loads, 'pumpOnly', 'nestWrite', {
          id: 'sse-pump-only',
          name: `SSE ${SSE_EVENTS} × 20 B (POST): toolkit's SSE pump from a bare \`@Res()\` handler (no interceptor) vs \`res.write\``,
        }),
        sseRow(loads, 'toolkitPost', 'pumpOnly', {
          id: 'sse-interceptor-path',
          name: `SSE ${SSE_EVENTS} × 20 B (POST): \`@Stream()\` vs the same pump without Nest's interceptor pipeline`,
        }),
        {
          id: 'sse-first-event',
          name: 'SSE time to first event (POST), `@Stream()` vs `res.write` (lower is better)',
          unit: 'ms',
          toolkit: firstEvent.toolkitPost,
          baseline: firstEvent.nestWrite,
        },
      ];
    },
  );
}
