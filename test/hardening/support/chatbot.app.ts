import { setTimeout as sleep } from 'node:timers/promises';
import { App, type ToolkitConfigInput } from 'toolkit';

/** The page `GET /` serves (the chatbot template's shape: a form posting to /chat/stream). */
const PAGE = `<!doctype html><html><body><form id="f"><input name="message"></form>
<script>/* posts to /chat/stream and prints each event */</script></body></html>`;

/** What the deterministic "model" answers: no network, no key, same text every time. */
export function replyTo(message: string, historyLength: number): string {
  return `You said: ${message} (message ${historyLength + 1} of this conversation)`;
}

/**
 * A chatbot-style app built from the framework the way the chatbot template is: per-user memory
 * through `app.memory(user_id)`, a JSON chat route, a streaming one, clear, a history view, a
 * cached analysis route, a health check and an HTML page. `config` picks the backends.
 *
 * @example
 * const app = createChatbotApp({ memory: { backend: 'redis', redis_url, key_prefix } });
 */
export function createChatbotApp(config: ToolkitConfigInput = {}): App {
  const app = new App({
    title: 'chatbot',
    version: '1.0.0',
    logger: false,
    cwd: '/nonexistent',
    config,
  });

  app.route('/health', { methods: ['GET'] }, () => ({ status: 'healthy', version: app.version }));

  app.route('/', { methods: ['GET'] }, (_params, { res }) => {
    res.setHeader('Content-Type', 'text/html; charset=utf-8');
    return PAGE;
  });

  app.route(
    '/chat',
    { methods: ['POST'], params: { user_id: 'string', message: 'string' } },
    async ({ user_id, message }) => {
      const memory = app.memory(user_id);
      const history = await memory.toDictList();
      await memory.add('user', message);
      const response = replyTo(message, history.length);
      await memory.add('assistant', response);
      return { response };
    },
  );

  app.route(
    '/chat/stream',
    { methods: ['POST'], stream: true, params: { user_id: 'string', message: 'string' } },
    async function* ({ user_id, message }, { signal }) {
      const memory = app.memory(user_id);
      const history = await memory.toDictList();
      await memory.add('user', message);
      const words = replyTo(message, history.length).split(' ');
      let sent = '';
      for (const word of words) {
        sent += sent ? ` ${word}` : word;
        yield sent === word ? word : ` ${word}`;
        await sleep(1, undefined, { signal });
      }
      await memory.add('assistant', sent);
    },
  );

  app.route('/clear', { methods: ['POST'], params: { user_id: 'string' } }, async ({ user_id }) => {
    await app.memory(user_id).clear();
    return { status: 'cleared' };
  });

  app.route(
    '/history',
    { methods: ['GET'], params: { user_id: 'string' } },
    async ({ user_id }) => {
      const messages = await app.memory(user_id).toDictList();
      return { user_id, count: messages.length, messages };
    },
  );

  app.route(
    '/analyze',
    {
      methods: ['POST'],
      cache: { ttl: 60 },
      params: {
        text: 'string',
        analysis_type: { type: 'string', default: 'summary' },
        options: { type: 'object', default: {} },
      },
    },
    ({ text, analysis_type, options }) => ({
      analysis: `${analysis_type} of ${text.length} characters`,
      options: Object.keys(options).length,
    }),
  );

  return app;
}
