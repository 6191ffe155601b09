import type { MemoryMessage } from './memory-message.js';

/** Tokens a message costs besides its text (role and framing in chat APIs). */
const MESSAGE_OVERHEAD = 4;

/**
 * A cheap, tokenizer-free token estimate: about four ASCII characters per token, and one token
 * per other code point (CJK, emoji and accented text tokenize far denser than English).
 *
 * @example
 * estimateTokens('Hello there'); // 3
 */
export function estimateTokens(text: string): number {
  let ascii = 0;
  let other = 0;
  for (const char of text) {
    if (char.charCodeAt(0) < 128) ascii += 1;
    else other += 1;
  }
  return Math.ceil(ascii / 4) + other;
}

/**
 * Estimated tokens one message costs in a prompt: its text, its tool steps as JSON (they are
 * replayed to the model), plus a fixed overhead of 4.
 */
export function estimateMessageTokens(message: Pick<MemoryMessage, 'content' | 'tools'>): number {
  const tools = message.tools === undefined ? 0 : estimateTokens(JSON.stringify(message.tools));
  return estimateTokens(message.content) + tools + MESSAGE_OVERHEAD;
}

/**
 * Splits a history into turns: each `user` message starts one, and the assistant messages after
 * it belong to it. System messages are not part of any turn.
 */
function turnsOf(messages: readonly MemoryMessage[]): number[][] {
  const turns: number[][] = [];
  messages.forEach((message, index) => {
    if (message.role === 'system') return;
    const current = turns.at(-1);
    if (message.role === 'user' || current === undefined) turns.push([index]);
    else current.push(index);
  });
  return turns;
}

/**
 * Keeps what fits a prompt budget: every system message (always, even over budget), then the
 * newest WHOLE turns (a user message with the replies after it) whose estimated tokens still fit.
 * Stops at the first turn that does not fit, so the result is a contiguous recent window.
 * Order is preserved (oldest first).
 *
 * @param maxTokens - budget for the returned messages, estimated with {@link estimateMessageTokens}
 * @param estimate - per-message cost. @default estimateMessageTokens
 * @example
 * const recent = fitTokenBudget(await store.list('alice'), 2000);
 */
export function fitTokenBudget(
  messages: readonly MemoryMessage[],
  maxTokens: number,
  estimate: (message: MemoryMessage) => number = estimateMessageTokens,
): MemoryMessage[] {
  const keep = new Set<number>();
  let remaining = maxTokens;
  messages.forEach((message, index) => {
    if (message.role !== 'system') return;
    keep.add(index);
    remaining -= estimate(message);
  });
  const turns = turnsOf(messages);
  for (let t = turns.length - 1; t >= 0; t -= 1) {
    const cost = turns[t].reduce((sum, index) => sum + estimate(messages[index]), 0);
    if (cost > remaining) break;
    remaining -= cost;
    for (const index of turns[t]) keep.add(index);
  }
  return messages.filter((_, index) => keep.has(index));
}
