import type { ConversationMemory, MemoryService } from 'toolkit';

/** The system prompt of the agent's conversations. */
export const CHAT_SYSTEM_PROMPT = 'You are a capable assistant that analyses and writes text.';

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
  return memory.for(`${session}/${userId}`);
}
