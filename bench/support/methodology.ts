/** How the numbers were obtained; appended to every results file. */
export const METHODOLOGY = `
- JSON: every server answers \`POST /echo {"message": ...}\` with \`{"echo": ...}\` (200). The toolkit
  routes declare and type-check \`message\`; the Nest baseline binds \`@Body('message')\` with no pipe.
- SSE: both servers stream the same async generator (200 chunks of 20 bytes); toolkit through
  \`@Stream()\`, the baseline with \`res.write\` per event from a bare Nest \`@Res()\` handler.
  events/s = completed responses/s × 200. Time to first event: 100 sequential requests on fresh
  connections per round, median.
- Cache: the uncached handler burns 2 ms of CPU; the cached one is the same handler under
  \`@Cache({ ttl: 600 })\`, driven with one identical body, so every measured request is a HIT.
- Memory: one op = \`add\` of a message + \`toDictList()\` of the 20-message history (max_history 20),
  through \`app.memory(userId)\`; the baseline does the same with the bare client (JSON entries for
  Redis; a plain table with an index on (user_id, id) for PostgreSQL, no trimming). 8 lanes, each
  its own user, in a separate process per side.
- CLI: wall-clock time of spawning \`node <bin> --version\` until exit, median of the spawns.
- Ratios come from medians of interleaved rounds (the order rotates each round). On a shared
  machine req/s moves with other load; the CPU ratio (server CPU time per request, from /proc)
  barely does, so read both.
- Framework changes this benchmark led to (issue 8): \`app.route()\` handlers get their
  AbortSignal lazily (was an AbortController + close listener per request); SSE: no timer per
  event (one heartbeat timer, refreshed), no Promise.race per event (it also leaked a reaction
  per event on long streams), no async-generator wrapper per stream, no regular expression per
  single-line event, headers sent with the first event instead of a write of their own, and no
  stray \`close\` listener per backpressure wait; \`app.memory()\` resolves MemoryService once per
  handle instead of once per call.
- TestClient: 8 lanes sending \`POST /echo\` through \`TestClient\` (light-my-request, no socket) vs
  supertest against the same app listening on 127.0.0.1.
`;

const JSON_CAUSE =
  'Measured with server CPU time per request (/proc), medians of 6 interleaved 3-s rounds on this ' +
  'machine: bare Nest 404 µs; Nest + one no-op global interceptor 474 µs (+17%); toolkit App ' +
  'serving a plain Nest route 508 µs (+26%: the global ToolkitRouteInterceptor is on every ' +
  'route); toolkit `@Route` 590 µs (+46%). In a second run, a prototype doing exactly ' +
  "toolkit's binding and return rules inside the handler, with toolkit's body parsers and pipe but no " +
  'interceptor, cost 448 µs against 411 µs for bare Nest (+9%). Profiles agree: Nest 12 runs ' +
  'any route that has an interceptor through an rxjs pipeline (defer + mergeAll, AsyncResource ' +
  'scopes, a ReplaySubject and a takeUntil(client disconnect) watch per request), and toolkit ' +
  'adds from(lastValueFrom(...)) on top (rxjs ≈ 30 µs/request in the profile, toolkit:http ≈ 18, ' +
  'extra GC ≈ 9). So the interceptor-based design is the cause. Fix (changes ToolkitModule and ' +
  'App, which the lead owns, so only proposed here): answer plain toolkit routes without an ' +
  'interceptor: bind and check parameters in the @Arg / a hidden param-decorator factory, apply ' +
  "the return rules in the HTTP adapter's reply for toolkit routes, and keep the interceptor " +
  'only where it is needed (@Stream, @Cache, user interceptors). Already fixed: app.route() ' +
  'handlers created an AbortController + close listener per request (now lazy), and the query ' +
  'string is parsed only when a parameter is looked up there. Note: run-to-run noise on this ' +
  'shared 2-core VM is ±10%, larger than the 5% the target allows.';

const CACHE_CAUSE =
  'A HIT is a full toolkit route (see the JSON rows) plus a cache read; on Redis also a GET round ' +
  'trip and JSON.parse of the stored entry. With autocannon, redis-server and the app sharing two ' +
  'cores, the HIT rate is bounded by that CPU, while the 2 ms handler dominates the uncached rate.';

/**
 * The measured cause of a missed target, by row id, from CPU profiles of the servers
 * (`BENCH_NODE_FLAGS=--cpu-prof`) and paired in-process runs. Printed only for rows whose
 * target this run missed.
 */
export const MISSED_CAUSES: Record<string, string> = {
  'json-route': JSON_CAUSE,
  'json-functional': JSON_CAUSE,
  sse:
    'Per request, the stream goes through the same Nest interceptor pipeline as a JSON route ' +
    '(ReplaySubject, disconnect watch, AsyncResource scopes: ~100 µs of CPU here) plus an ' +
    'AbortController and the Observable-to-iterator bridge; per event, one more call layer and a ' +
    'heartbeat timer refresh. Already removed (see the framework changes of issue 8): a new timer ' +
    'per event, a Promise.race per event (which also leaked one reaction per event on long ' +
    'streams), an async-generator wrapper around the handler, the regular expression in ' +
    'formatEvent and the separate header write. The rest goes with the interceptor fix above.',
  'cache-memory': CACHE_CAUSE,
  'cache-redis': CACHE_CAUSE,
  'memory-memory':
    'The baseline is a bare Map of arrays (a few hundred ns per op), so every fixed cost shows: ' +
    'profile of the toolkit side: StoreConversationMemory.add 13% self (role/content validation, ' +
    'ISO timestamp), the store re-validating the stored message with a regular expression and ' +
    'copying all 20 messages on read (12%), two promise hops per call (settle()), and ~12% ' +
    'resolving MemoryService through the Nest container on every app.memory() (App.get through ' +
    "Nest's proxy). Fix: App.memory() should keep the resolved MemoryService (app.ts, not done " +
    'here: the lead owns that file); the rest is the price of an async, validated API and is ' +
    'negligible next to any real request.',
  'memory-redis':
    'Same round trips as the baseline (MULTI(RPUSH, LTRIM) then LRANGE); the difference is CPU ' +
    'in the process: validation of every message on write, JSON.parse plus re-validation (ISO ' +
    'regular expression) of each of the 20 entries on read, and the per-call container lookup ' +
    'of app.memory() described for the in-memory row.',
  'memory-postgres':
    'Each toolkit append also enforces memory.max_history in the same statement (a CTE with ' +
    "an INSERT and a DELETE of the user's rows beyond the newest N, using a subquery over the " +
    '(user_id, id) index); the bare baseline only INSERTs and lets the table grow. The read is ' +
    'equivalent (ORDER BY id DESC LIMIT 20 in a subquery).',
};
