/**
 * Translation with an optional parameter: target_lang defaults to Spanish.
 *
 *   curl -s -X POST localhost:8000/translate -H 'content-type: application/json' -d '{"text":"Good morning"}'
 *   curl -s -X POST localhost:8000/translate -H 'content-type: application/json' -d '{"text":"Good morning","target_lang":"German"}'
 */
import { App, LLM } from 'toolkit';

export const app = new App({ title: 'translate', version: '1.0.0' });
const llm = new LLM('auto');

app.route(
  '/translate',
  {
    methods: ['POST'],
    params: { text: 'string', target_lang: { type: 'string', default: 'Spanish' } },
  },
  async ({ text, target_lang }) => {
    const translation = await llm.complete(text, {
      system: `Translate the user's text into ${target_lang}. Answer with the translation only.`,
    });
    return { translation, language: target_lang };
  },
);
