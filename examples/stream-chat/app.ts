/**
 * Single-user streaming chat: the answer arrives word by word as Server-Sent Events.
 *
 *   curl -N -X POST localhost:8000/chat -H 'content-type: application/json' -d '{"message":"Tell me a story"}'
 */
import { App, LLM } from 'toolkit';

export const app = new App({ title: 'stream-chat', version: '1.0.0' });
const llm = new LLM('auto');

app.route(
  '/chat',
  { methods: ['POST'], stream: true, params: { message: 'string' } },
  // `signal` fires when the client disconnects, which aborts the upstream LLM request too.
  async ({ message }, { signal }) => llm.chat(message, { stream: true, signal }),
);
