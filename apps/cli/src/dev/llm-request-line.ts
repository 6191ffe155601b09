import type { LlmRequestMessage } from '../runtime/served-app.js';

/**
 * The line `toolkit dev` prints after a request that called an LLM: route, model, tokens in and
 * out, cost and time to first token, two spaces apart. The cost reads `cost unknown` when a
 * call's price is not known; the first token part is left out for answers that were not
 * streamed; a status other than 2xx follows the route.
 *
 * @example
 * formatLlmRequest({ type: 'llm-request', method: 'POST', route: '/chat/stream', status: 200,
 *   model: 'gpt-4o-mini', inputTokens: 12, outputTokens: 48, costUsd: 0.00003, timeToFirstTokenMs: 210 });
 * // 'POST /chat/stream  gpt-4o-mini  12→48 tokens  $0.00003  first token 210 ms'
 */
export function formatLlmRequest(request: LlmRequestMessage): string {
  const ok = request.status >= 200 && request.status < 300;
  const parts = [
    `${request.method} ${request.route ?? '(no route)'}${ok ? '' : ` ${request.status}`}`,
    request.model,
    `${request.inputTokens}→${request.outputTokens} tokens`,
    request.costUsd === undefined ? 'cost unknown' : formatUsd(request.costUsd),
  ];
  if (request.timeToFirstTokenMs !== undefined) {
    parts.push(`first token ${Math.round(request.timeToFirstTokenMs)} ms`);
  }
  return parts.join('  ');
}

/** Dollars with two significant digits below a cent (`$0.000031`), cents above (`$1.25`). */
export function formatUsd(usd: number): string {
  if (usd === 0) return '$0';
  if (usd >= 0.01) return `$${usd.toFixed(2)}`;
  if (usd < 0.000001) return '<$0.000001';
  // Two significant digits, written out in full (never `3.1e-7`), trailing zeros dropped.
  const digits = Math.min(6, 1 - Math.floor(Math.log10(usd)));
  return `$${usd.toFixed(digits).replace(/0+$/, '')}`;
}
