import { SSE_EVENTS } from '../servers/sse-source.js';
import type { BenchSettings } from '../support/settings.js';
import { drive, driveServer, probe, timeToFirstByte, type RequestSpec } from '../support/load.js';
import { interleave, log, withServers } from '../support/rounds.js';
import type { Row } from '../support/row.js';

const EVENTS: RequestSpec = { path: '/events', method: 'POST', json: {} };
/** Sequential requests per round for the time-to-first-event row. */
export const FIRST_EVENT_SAMPLES = 100;

/** SSE, 200 events of 20 bytes per request: `@Stream()` vs bare Nest writing to the response. */
export async function sseSuite(settings: BenchSettings): Promise<Row[]> {
  log(`SSE ${SSE_EVENTS} events per request`);
  return withServers(
    {
      toolkit: { script: 'servers/sse-toolkit.server.js' },
      nest: { script: 'servers/sse-nest.server.js' },
    },
    async (servers) => {
      for (const server of Object.values(servers)) {
        const answer = await probe(server.url, EVENTS);
        const events = answer.body.split('\n\n').filter((e) => e.startsWith('event: message'));
        if (answer.status !== 200 || events.length !== SSE_EVENTS) {
          throw new Error(`${server.name} sent ${answer.status} with ${events.length} events`);
        }
        await drive(server.url, EVENTS, settings.warmup, settings.connections);
      }
      const keys = ['toolkit', 'nest'] as const;
      const loads = await interleave(keys, settings.rounds, (key) =>
        driveServer(servers[key], EVENTS, settings.duration, settings.connections),
      );
      const eventsPerSec = (key: (typeof keys)[number]): number[] =>
        loads[key].map((l) => l.requestsPerSec * SSE_EVENTS);
      const cpuPerEvent = (key: (typeof keys)[number]): number[] =>
        loads[key].map((l) => l.cpuMicrosPerRequest / SSE_EVENTS);
      log('SSE time to first event');
      const firstEvent = await interleave(keys, settings.rounds, (key) =>
        timeToFirstByte(servers[key].url, EVENTS, FIRST_EVENT_SAMPLES),
      );
      const rows: Row[] = [
        {
          id: 'sse',
          name: `SSE ${SSE_EVENTS} × 20 B: \`@Stream()\` vs Nest \`res.write\``,
          unit: 'events/s',
          toolkit: eventsPerSec('toolkit'),
          baseline: eventsPerSec('nest'),
          cpu: { toolkit: cpuPerEvent('toolkit'), baseline: cpuPerEvent('nest') },
          target: { kind: 'min', value: 0.95 },
        },
        {
          id: 'sse-first-event',
          name: 'SSE time to first event (lower is better)',
          unit: 'ms',
          toolkit: firstEvent.toolkit,
          baseline: firstEvent.nest,
        },
      ];
      return rows;
    },
  );
}
