import type { ConversationMemory, MemoryService } from 'toolkit';

/** The system prompt of the agent's conversations. */
export const CHAT_SYSTEM_PROMPT =
  'You are a capable assistant that analyses and writes text. Use your tools: the calculator for ' +
  'any arithmetic, current_time for dates and times, save_note to remember what the user asks ' +
  'you to keep and search_notes to find it again.';

/** `user_id` is optional: one session (one browser) may keep several named conversations. */
export const USER_ID = { default: 'me', maxLength: 200 } as const;

/** A chat message: at most 20,000 characters (a longer one answers 422). */
export const MESSAGE = { maxLength: 20_000 } as const;

/** A text to analyse or a prompt to write from: at most 20,000 characters. */
export const TEXT = { maxLength: 20_000 } as const;

/** A style's name (`/generate`): one of the configured styles, checked in the route. */
export const STYLE = { default: 'formal', maxLength: 100 } as const;

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
