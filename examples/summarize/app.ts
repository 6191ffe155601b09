/**
 * A cached summariser: the same text within 10 minutes is answered from the cache
 * (`X-Cache: HIT`) without calling the model again. Empty text is refused with a 400.
 *
 *   curl -si -X POST localhost:8000/summarize -H 'content-type: application/json' -d '{"text":"..."}'
 */
import { App, LLM } from 'toolkit';

export const app = new App({ title: 'summarize', version: '1.0.0' });
const llm = new LLM('auto');

app.route(
  '/summarize',
  { methods: ['POST'], params: { text: 'string' }, cache: { ttl: 600 } },
  async ({ text }) => {
    // Returning [body, status] answers with that status; 4xx answers are never cached.
    if (text.trim() === '') return [{ error: 'text must not be empty' }, 400];
    const summary = await llm.complete(`Summarize in one sentence:\n\n${text}`);
    return { summary };
  },
);
