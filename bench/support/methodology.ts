import { SSE_EVENTS } from '../servers/sse-source.js';
import { FIRST_EVENT_SAMPLES } from '../suites/sse.suite.js';
import type { BenchSettings } from './settings.js';

/**
 * How the numbers were obtained, appended to every results file. It describes the method only:
 * no result appears here, and the few counts it names come from the code that uses them.
 */
export function methodology(settings: BenchSettings): string {
  return `
- JSON: every server answers \`POST /echo {"message": ...}\` with \`{"echo": ...}\` (200). The toolkit
  routes declare and type-check \`message\` (\`@Arg\`, \`app.route\` params). Baselines: bare Nest binding
  \`@Body('message')\` with no pipe, and bare Nest with a global \`ValidationPipe\` and a class-validator
  DTO (\`@IsString() message\`), the Nest way to check a body. Before measuring, the checking servers
  must refuse \`{"message": 42}\` with a 4xx. "Plain Nest controller in a toolkit App" serves the very
  class of the bare Nest baseline from \`new App({ controllers: [...] })\`. "Nest + 1 no-op global
  interceptor" and raw \`node:http\` are context rows.
- SSE: every server streams the same async generator (${SSE_EVENTS} chunks of 20 bytes). toolkit through
  \`@Stream()\` on a route answering GET and POST; bare Nest writing \`res.write\` per event from an
  \`@Res()\` handler (POST); Nest's own \`@Sse()\` returning an \`Observable<MessageEvent>\` (GET only).
  Each row drives toolkit with its baseline's method. Before measuring, each answer must carry
  exactly ${SSE_EVENTS} events, counted as blank-line-separated frames with a \`data:\` line.
  events/s = completed responses/s × ${SSE_EVENTS}. Time to first event: ${FIRST_EVENT_SAMPLES} sequential
  requests on fresh connections per round, median.
- Cache: \`GET /cached?text=...\` on both sides, same handler (2 ms of CPU), one identical URL, so
  every measured request is a HIT (\`@nestjs/cache-manager\` caches GET only). toolkit: \`@Cache\` on
  its memory or Redis (ioredis) backend; baseline: \`@UseInterceptors(CacheInterceptor)\` with
  \`CacheModule.register()\`'s default in-memory Keyv store, or a \`@keyv/redis\` store. After the
  rounds each server's handler must have run exactly once (the priming MISS).
- Memory: one op = \`add\` of a message + \`toDictList()\` of the 20-message history (max_history 20),
  through \`app.memory(userId)\`; the baseline does the same with the bare client (JSON entries for
  Redis; a plain table with an index on (user_id, id) for PostgreSQL, no trimming).
  ${settings.opsConcurrency} lanes, each its own user, in a separate process per side.
- CLI: wall-clock time of spawning \`node <bin> --version\` until exit, median of the spawns.
- TestClient: ${settings.opsConcurrency} lanes sending \`POST /echo\` through \`TestClient\` (light-my-request,
  no socket) vs supertest against the same app listening on 127.0.0.1.
- Telemetry: one app (\`POST /echo\` with \`@Route\`; \`POST /ask\` and the streamed \`POST /chat\` calling
  \`llm.chat\` on the offline echo model) started four times per platform: off, metrics + traces on,
  only metrics, only traces, by environment (\`TOOLKIT_TELEMETRY_METRICS\`, \`TOOLKIT_TELEMETRY_ENABLED\` and
  \`OTEL_EXPORTER_OTLP_ENDPOINT\` at an OTLP/HTTP sink in the harness that answers 200 and counts
  requests, bytes and spans, JSON or protobuf). \`GET /metrics\` is scraped every second (one request at a
  time, fresh connection) while a metrics server is measured. Before measuring, \`/metrics\` must answer
  200 exactly on the servers with metrics on. Servers are pinned to CPU 1 and the harness to CPU 0,
  all at nice -15 when allowed. The ratio is the median of per-round ratios. The profile is a
  separate run of the off and on servers under \`--cpu-prof\`; only samples inside the measured
  window (monotonic clock) count, divided by the requests of that window.
- Ratios come from medians of interleaved rounds (the order rotates each round). On a shared
  machine req/s moves with other load; the CPU ratio (CPU time per request, from /proc) barely
  does, so read both. A missed target lists only what this run measured: both sides' CPU time
  per request and its difference, and the CPU differences of the context rows measured beside it.
`;
}
