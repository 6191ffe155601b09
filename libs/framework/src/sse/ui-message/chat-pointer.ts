import { createHash } from 'node:crypto';
import type { StreamLog } from '../../../../providers/src/internal.js';

/** Which resumable stream answers a chat's latest message. */
export interface ChatStreamRef {
  /** Where the stream lives in the log (a digest of owner and stream id for an owned stream). */
  readonly key: string;
  /** The stream's public id (its `X-Stream-Id`). */
  readonly id: string;
}

/**
 * Where a chat's pointer lives in the stream log: a digest of its owner and the AI SDK's chat
 * id, so the same chat id of another owner points nowhere, and a long or odd id makes a key of
 * fixed length.
 */
export function chatPointerKey(chatId: string, owner: string | undefined): string {
  const digest = createHash('sha256')
    .update(`chat\u0000${owner ?? ''}\u0000${owner === undefined ? 0 : 1}\u0000${chatId}`)
    .digest('base64url');
  return `chat.${digest}`;
}

/**
 * Records that `stream` answers the chat of `pointerKey` now. The pointer is a one-entry stream
 * of the same log (in-process or Redis, like the streams), so every process that can resume the
 * stream can also find it; it expires with the stream, and a new message of the chat replaces it.
 */
export async function writeChatPointer(
  log: StreamLog,
  pointerKey: string,
  stream: ChatStreamRef,
  ttlSeconds: number,
): Promise<void> {
  await log.create(pointerKey, ttlSeconds);
  await log.append(
    pointerKey,
    { kind: 'event', data: JSON.stringify({ key: stream.key, id: stream.id }) },
    ttlSeconds,
  );
}

/** The stream a chat's pointer names, or `undefined` when it has none (or it expired). */
export async function readChatPointer(
  log: StreamLog,
  pointerKey: string,
): Promise<ChatStreamRef | undefined> {
  const entries = await log.read(pointerKey, 0);
  const entry = entries?.[0];
  if (entry?.kind !== 'event') return undefined;
  try {
    const ref = JSON.parse(entry.data) as Partial<ChatStreamRef>;
    return typeof ref.key === 'string' && typeof ref.id === 'string'
      ? { key: ref.key, id: ref.id }
      : undefined;
  } catch {
    return undefined;
  }
}
