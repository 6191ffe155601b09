import { describe, expect, it } from '@jest/globals';
import { parseRetryAfterMs, providerFetch } from './provider.fetch.js';

describe('parseRetryAfterMs', () => {
  it('reads retry-after-ms, seconds and HTTP dates', () => {
    expect(parseRetryAfterMs(new Headers({ 'retry-after-ms': '1500' }))).toBe(1500);
    expect(parseRetryAfterMs(new Headers({ 'retry-after': '3' }))).toBe(3000);
    const inAMinute = new Date(Date.now() + 60_000).toUTCString();
    const ms = parseRetryAfterMs(new Headers({ 'retry-after': inAMinute }))!;
    expect(ms).toBeGreaterThan(50_000);
    expect(ms).toBeLessThanOrEqual(60_000);
  });

  it('is undefined when absent or unreadable', () => {
    expect(parseRetryAfterMs(new Headers())).toBeUndefined();
    expect(parseRetryAfterMs(new Headers({ 'retry-after': 'soon' }))).toBeUndefined();
    expect(parseRetryAfterMs(undefined)).toBeUndefined();
  });
});

describe('providerFetch', () => {
  const answering = (status: number, headers: Record<string, string>) => () =>
    Promise.resolve(new Response('{}', { status, headers }));

  it('marks a long Retry-After as not worth an SDK retry', async () => {
    const response = await providerFetch(2000, answering(429, { 'retry-after': '30' }))('http://x');
    expect(response.status).toBe(429);
    expect(response.headers.get('x-should-retry')).toBe('false');
    expect(response.headers.get('retry-after')).toBe('30');
    expect(await response.text()).toBe('{}');
  });

  it('leaves short waits, other statuses and missing headers alone', async () => {
    for (const [status, headers] of [
      [429, { 'retry-after': '1' }],
      [500, { 'retry-after': '30' }],
      [429, {}],
    ] as const) {
      const response = await providerFetch(2000, answering(status, headers))('http://x');
      expect(response.headers.get('x-should-retry')).toBeNull();
    }
  });

  it('turns an abort into a "timed out" error the SDKs classify as a timeout', async () => {
    const aborting = () =>
      Promise.reject(new DOMException('This operation was aborted', 'AbortError'));
    await expect(providerFetch(2000, aborting)('http://x')).rejects.toThrow('Request timed out');
    const failing = () => Promise.reject(new TypeError('fetch failed'));
    await expect(providerFetch(2000, failing)('http://x')).rejects.toThrow('fetch failed');
  });
});
