/**
 * Chat with per-user memory: every user_id has its own conversation, kept by the configured
 * memory backend (in-process by default; `memory.backend: redis` or `postgres` in toolkit.yaml).
 *
 *   curl -s -X POST localhost:8000/chat -H 'content-type: application/json' -d '{"user_id":"ana","message":"Hi, I am Ana"}'
 *   curl -s -X POST localhost:8000/clear -H 'content-type: application/json' -d '{"user_id":"ana"}'
 */
import { App, LLM } from 'toolkit';

export const app = new App({ title: 'chat-memory', version: '1.0.0' });
// 'auto' uses the first provider whose API key is set, or the offline `echo` model.
const llm = new LLM('auto');

app.route('/health', {}, () => ({ status: 'healthy', version: app.version }));

app.route(
  '/chat',
  { methods: ['POST'], params: { user_id: 'string', message: 'string' } },
  async ({ user_id, message }) => {
    const memory = app.memory(user_id);
    const history = await memory.toDictList();
    const response = await llm.chat(message, { history });
    await memory.addTurn(message, response); // both or neither, once the answer exists
    return { response };
  },
);

app.route('/clear', { methods: ['POST'], params: { user_id: 'string' } }, async ({ user_id }) => {
  await app.memory(user_id).clear();
  return { status: 'cleared' };
});
