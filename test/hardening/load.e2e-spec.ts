/**
 * Load: 2,000 chat requests at 50 concurrent connections against the chatbot-style app with its
 * memory on Redis (a key prefix of its own), over real sockets. Not one request fails, and every
 * user's history holds exactly the messages sent (two per request: user and assistant).
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Agent, request } from 'node:http';
import {
  deleteRedisKeys,
  REDIS_URL,
  uniquePrefix,
} from '../../libs/providers/test/state/support/backends.js';
import { createChatbotApp } from './support/chatbot.app.js';
import { stallWatch, UNTIL_STALLED_MS } from '../support/stall-watch.js';
import { runPool } from './support/pool.js';
import { serve, type ServedApp } from './support/served-app.js';

const REQUESTS = 2_000;
const CONCURRENCY = 50;
const USERS = 25;

describe('2,000 chat requests at 50 concurrency, Redis memory', () => {
  const prefix = uniquePrefix('load');
  const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  let served: ServedApp;

  /** A request on the keep-alive pool (JSON body when given); resolves with status and JSON. */
  const call = (
    method: string,
    path: string,
    json?: unknown,
  ): Promise<{ status: number; body: unknown }> =>
    new Promise((resolve, reject) => {
      const payload = json === undefined ? '' : JSON.stringify(json);
      const req = request(
        `${served.base}${path}`,
        {
          method,
          agent,
          timeout: 15_000,
          headers: {
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(payload),
          },
        },
        (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => (text += chunk));
          res.on('end', () =>
            resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) as unknown }),
          );
        },
      );
      req.on('timeout', () => req.destroy(new Error(`${path} timed out`)));
      req.on('error', reject);
      req.end(payload);
    });

  beforeAll(async () => {
    served = await serve(
      'chatbot/redis',
      createChatbotApp({
        memory: { backend: 'redis', redis_url: REDIS_URL, key_prefix: prefix, max_history: 1_000 },
      }),
    );
  });

  afterAll(async () => {
    agent.destroy();
    await served?.close();
    await deleteRedisKeys(prefix);
  });

  // Limited by progress, not by a total time: a loaded machine makes the 2,000 requests slower,
  // while requests that stop being answered are a hang whatever the load.
  it(
    'answers every request and loses no message',
    async () => {
      const watch = stallWatch(15_000, `${REQUESTS} chat requests`);
      let answered = 0;
      const pool = runPool(REQUESTS, CONCURRENCY, async (i) => {
        const result = await call('POST', '/chat', {
          user_id: `user-${i % USERS}`,
          message: `message ${i}`,
        });
        watch.moved((answered += 1));
        return result;
      });
      const results = await Promise.race([pool, watch.stalled]).finally(() => watch.stop());
      const failures = results.filter((r) => r instanceof Error || r.status !== 200);
      expect(failures.slice(0, 5)).toEqual([]);

      const perUser = REQUESTS / USERS;
      for (let u = 0; u < USERS; u += 1) {
        const { status, body } = await call('GET', `/history?user_id=user-${u}`);
        expect(status).toBe(200);
        const { count, messages } = body as {
          count: number;
          messages: { role: string; content: string }[];
        };
        expect(count).toBe(perUser * 2);
        const sent = messages.filter((m) => m.role === 'user').map((m) => m.content);
        const expected = Array.from({ length: perUser }, (_, k) => `message ${u + k * USERS}`);
        expect([...sent].sort()).toEqual([...expected].sort());
        expect(messages.filter((m) => m.role === 'assistant')).toHaveLength(perUser);
      }
    },
    UNTIL_STALLED_MS,
  );
});
