import type { HistoryMessage } from '../../../../providers/src/internal.js';
import { ValidationError } from '../../../../providers/src/internal.js';
import type { UiChatRequest } from './ui-message-request.js';

/**
 * Checks a `useChat` request against the conversation the server holds for its chat, before
 * anything is stored: the user messages the client sends before its new one may not contradict
 * the user messages the server holds. The client may lack some at either end — older ones it
 * never loaded, or the newest when a reload resumed an answer whose question was stored only once
 * the answer ended — and the server may lack older ones past `memory.max_history`; but where the
 * two overlap (the client's last ones against the server's first ones) they must be the same.
 * Assistant messages are not compared: an answer the client stopped may be shorter on the client
 * than in memory. The server's history, not the client's, is what goes to the model, so a client
 * cannot rewrite what was said.
 *
 * @param stored the chat's stored messages (`memory.toDictList()`), oldest first
 * @throws ValidationError (422) naming `messages[i]`, the first user message of the client's
 *   overlap that differs from the server's
 *
 * @example
 * const request = readUiChatRequest(body);
 * const memory = this.memory.for(`${session}/chat:${request.id}`);
 * const history = await memory.toDictList();
 * assertUiChatHistory(request, history);
 * return recordTurn(memory, request.message, await this.llm.streamEvents(request.message, { history }));
 */
export function assertUiChatHistory(
  request: Pick<UiChatRequest, 'history' | 'id'>,
  stored: readonly HistoryMessage[],
): void {
  const sent = request.history
    .map((message, index) => ({ text: message.content, index, user: message.role === 'user' }))
    .filter((message) => message.user);
  const held = stored.filter((message) => message.role === 'user').map((m) => m.content);
  if (sent.length === 0 || held.length === 0) return;
  // The client's last `n` user messages against the server's first `n`, longest overlap first.
  for (let n = Math.min(sent.length, held.length); n > 0; n -= 1) {
    const tail = sent.slice(sent.length - n);
    if (tail.every((message, i) => message.text === held[i])) return;
  }
  // No overlap agrees: the newest message the client sends and the server holds is rewritten.
  const n = Math.min(sent.length, held.length);
  const tail = sent.slice(sent.length - n);
  const differing = tail.find((message, i) => message.text !== held[i]) ?? tail[0];
  throw new ValidationError([
    {
      param: `messages[${differing?.index ?? 0}]`,
      problem: `differs from the message the server holds for chat ${JSON.stringify(request.id)}`,
    },
  ]);
}
