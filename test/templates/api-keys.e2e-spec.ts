/**
 * The api template's guards (issue 26): failed API-key attempts are throttled per client address
 * and logged with the address, never the key; the rate limiter's per-address fallback is
 * reachable (requests without a valid key are counted against their address).
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { Logger } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import type { AddressInfo } from 'node:net';
import { App } from 'toolkit';
import { ApiController } from '../../templates/api/src/api.controller.js';
import { ApiKeyGuard, MAX_KEY_FAILURES } from '../../templates/api/src/api-key.guard.js';
import { rateLimitProvider, RateLimitGuard } from '../../templates/api/src/rate-limit.guard.js';

const KEY = 'the-valid-key-4f1c';
const WRONG = 'a-wrong-key-9d2e';

let app: App | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
  jest.restoreAllMocks();
});

const saved = { keys: process.env.API_KEYS, limit: process.env.RATE_LIMIT_PER_MINUTE };
beforeAll(() => {
  process.env.API_KEYS = KEY;
});
afterAll(() => {
  for (const [name, value] of [
    ['API_KEYS', saved.keys],
    ['RATE_LIMIT_PER_MINUTE', saved.limit],
  ] as const) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

/** The template's app (app.ts.hbs): rate limit first, then the key check. */
async function start(perMinute: number): Promise<string> {
  process.env.RATE_LIMIT_PER_MINUTE = String(perMinute);
  app = new App({
    logger: false,
    cwd: '/nonexistent',
    controllers: [ApiController],
    providers: [
      rateLimitProvider,
      { provide: APP_GUARD, useClass: RateLimitGuard },
      { provide: APP_GUARD, useClass: ApiKeyGuard },
    ],
    config: { llm: { default_model: 'echo' } },
  });
  const server = await app.run({ host: '127.0.0.1', port: 0 });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function complete(url: string, key?: string) {
  return fetch(`${url}/complete`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(key === undefined ? {} : { authorization: `Bearer ${key}` }),
    },
    body: JSON.stringify({ prompt: 'Hi' }),
  });
}

describe('the api template', () => {
  it('throttles failed keys per address with 429 + Retry-After, and logs them without the key', async () => {
    const warnings: string[] = [];
    jest.spyOn(Logger.prototype, 'warn').mockImplementation((message: unknown) => {
      warnings.push(String(message));
    });
    const url = await start(1000);
    const statuses: number[] = [];
    for (let i = 0; i < MAX_KEY_FAILURES + 2; i += 1) {
      statuses.push((await complete(url, i % 2 === 0 ? WRONG : undefined)).status);
    }
    expect(statuses).toEqual([...Array<number>(MAX_KEY_FAILURES).fill(401), 429, 429]);
    const refused = await complete(url, WRONG);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(((await refused.json()) as { error: string }).error).toMatch(
      /^Rate limit exceeded for failed API keys from this address/,
    );
    // A valid key from the same address still gets in: only failures are throttled.
    expect((await complete(url, KEY)).status).toBe(200);

    const logged = warnings.filter((line) => /API key/.test(line));
    expect(logged.length).toBeGreaterThanOrEqual(MAX_KEY_FAILURES);
    expect(logged[0]).toMatch(
      /^(Invalid|No) API key from \S+ \(1 of 10 failures allowed a minute\)$/,
    );
    expect(logged.some((line) => line.startsWith('Too many failed API keys from '))).toBe(true);
    expect(warnings.join('\n')).not.toContain(WRONG);
    expect(warnings.join('\n')).not.toContain(KEY);
  });

  it('counts requests without a valid key against their address (the fallback is reachable)', async () => {
    jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    const url = await start(3);
    const statuses: number[] = [];
    for (let i = 0; i < 4; i += 1) statuses.push((await complete(url)).status);
    expect(statuses).toEqual([401, 401, 401, 429]);
    const refused = await complete(url);
    expect(refused.headers.get('x-ratelimit-limit')).toBe('3');
    expect(((await refused.json()) as { error: string }).error).toMatch(/for this address/);
    // A valid key has its own count.
    const keyed = await complete(url, KEY);
    expect(keyed.status).toBe(200);
    expect(keyed.headers.get('x-ratelimit-remaining')).toBe('2');
  });
});
