import request from 'supertest';
import { MockLLM } from 'toolkit/testing';

/** The text of a Server-Sent Events body: its `data:` lines, joined. */
function sseText(body: string): string {
  return body
    .split('\n')
    .filter((line) => line.startsWith('data: '))
    .map((line) => line.slice('data: '.length))
    .join('');
}

/** What supertest takes: the app's `getHttpServer()`. */
type Server = Parameters<typeof request>[0];

/** The answer every check expects of the mock. */
export const MOCK_REPLY = 'Hi from MockLLM';

/** POST /chat/ask answers the mock's reply (the app's LLM is the overridden one). */
export async function expectAsk(server: Server): Promise<void> {
  await request(server)
    .post('/chat/ask')
    .send({ message: 'Hello' })
    .expect(200)
    .expect({ reply: MOCK_REPLY });
}

/** GET /chat/stream is Server-Sent Events carrying the mock's reply. */
export async function expectStream(server: Server): Promise<void> {
  const response = await request(server)
    .get('/chat/stream?message=Hello')
    .expect(200)
    .expect('Content-Type', /^text\/event-stream/);
  expect(sseText(response.text)).toBe(MOCK_REPLY);
}

/** GET /chat/cached asks the LLM once: the second answer is the cache's. */
export async function expectCached(
  server: Server,
  llm: MockLLM,
): Promise<void> {
  await request(server)
    .get('/chat/cached?message=Hello')
    .expect(200)
    .expect('X-Cache', 'MISS');
  await request(server)
    .get('/chat/cached?message=Hello')
    .expect(200)
    .expect('X-Cache', 'HIT')
    .expect({ reply: MOCK_REPLY });
  expect(llm.calls).toEqual([['complete', 'Hello', {}]]);
}
