import type { ConversationMemory, MemoryService } from 'toolkit';

/** The system prompt of the agent's conversations. */
export const CHAT_SYSTEM_PROMPT =
  'You are a capable assistant that analyses and writes text. Use your tools: the calculator for ' +
  'any arithmetic, current_time for dates and times, save_note to remember what the user asks ' +
  'you to keep and search_notes to find it again.';

/** `user_id` is optional: one session (one browser) may keep several named conversations. */
export const USER_ID = { default: 'me', maxLength: 200 } as const;

/**
 * One conversation of a session (`@Session()`): `user_id` names it inside the session, never
 * across, so nobody reads or clears another's history by sending their `user_id`.
 */
export function conversationOf(
  memory: MemoryService,
  session: string,
  userId: string,
): ConversationMemory {
  return memory.for(conversationId(session, userId));
}

/** The id of that conversation: its memory key, and what its tools get as `context.conversation`. */
export function conversationId(session: string, userId: string): string {
  return `${session}/${userId}`;
}
