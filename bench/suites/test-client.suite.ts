import type { BenchSettings } from '../support/settings.js';
import type { OpsResult } from '../support/ops-loop.js';
import { interleave, log } from '../support/rounds.js';
import type { Row } from '../support/row.js';
import { runWorker } from '../support/server-process.js';

/** TestClient in-process requests/s vs supertest over a socket, same app and request. */
export async function testClientSuite(settings: BenchSettings): Promise<Row[]> {
  log('TestClient vs supertest');
  const values = await interleave(['testclient', 'supertest'] as const, settings.rounds, (mode) =>
    runWorker<OpsResult>('workers/test-client.worker.js', [
      mode,
      String(settings.duration),
      String(settings.opsConcurrency),
      String(settings.warmup),
    ]),
  );
  return [
    {
      id: 'testclient',
      name: 'TestClient in-process vs supertest over a socket',
      unit: 'req/s',
      toolkit: values.testclient.map((v) => v.opsPerSec),
      baseline: values.supertest.map((v) => v.opsPerSec),
      cpu: {
        toolkit: values.testclient.map((v) => v.cpuMicrosPerOp),
        baseline: values.supertest.map((v) => v.cpuMicrosPerOp),
      },
    },
  ];
}
