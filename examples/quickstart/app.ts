/**
 * A one-file toolkit app: run it with `npm start` (from the repository root) and try
 *   curl -s localhost:8000/health
 *   curl -s -X POST localhost:8000/translate -H 'content-type: application/json' -d '{"text":"hello"}'
 *   curl -N -X POST localhost:8000/count -H 'content-type: application/json' -d '{"to":5}'
 */
import { pathToFileURL } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { App } from 'toolkit';

export const app = new App({ title: 'quickstart', version: '1.0.0' });

app.route('/health', { methods: ['GET'] }, () => ({ status: 'healthy', version: app.version }));

// Parameters are declared once: checked (422 naming each bad one) and typed for the handler.
app.route(
  '/translate',
  {
    methods: ['POST'],
    params: { text: 'string', target_lang: { type: 'string', default: 'Spanish' } },
  },
  ({ text, target_lang }) => ({ translation: `[${target_lang}] ${text}`, language: target_lang }),
);

// `[body, status]` answers with that status.
app.route('/divide', { methods: ['GET'], params: { a: 'number', b: 'number' } }, ({ a, b }) =>
  b === 0 ? [{ error: 'b must not be zero' }, 400] : { result: a / b },
);

// A streaming route: every yielded string is one Server-Sent Event, flushed at once.
app.route(
  '/count',
  { methods: ['POST'], stream: true, params: { to: { type: 'integer', default: 3 } } },
  async function* ({ to }, { signal }) {
    for (let i = 1; i <= to; i += 1) {
      yield String(i);
      await sleep(100, undefined, { signal });
    }
  },
);

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const server = await app.run();
  const address = server.address();
  const where =
    typeof address === 'object' && address
      ? `http://${address.address}:${address.port}`
      : String(address);
  console.log(`quickstart serving on ${where} (Ctrl+C to stop)`);
}
