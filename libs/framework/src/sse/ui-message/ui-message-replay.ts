import type { ServerResponse } from 'node:http';
import type { SseMessageEvent } from '../sse-event.js';
import {
  UI_MESSAGE_STREAM_DONE,
  UI_MESSAGE_STREAM_HEADER,
  UI_MESSAGE_STREAM_VERSION,
  type UiMessageChunk,
} from './ui-message-chunk.js';

/**
 * The chunks of a resumable `'ui-message'` stream read back from its log (each event's data is
 * a chunk as JSON; a failure is the log's `error` event), then the closing `data: [DONE]` — or
 * nothing at all when the log had nothing left, so the response can answer `204`. The protocol's
 * header is set with the first chunk, so a failure before it still gets its own status.
 */
export async function* replayUiMessageChunks(
  res: ServerResponse,
  events: AsyncIterable<unknown>,
): AsyncGenerator<UiMessageChunk | typeof UI_MESSAGE_STREAM_DONE> {
  let sent = false;
  for await (const event of events) {
    if (!sent && !res.headersSent)
      res.setHeader(UI_MESSAGE_STREAM_HEADER, UI_MESSAGE_STREAM_VERSION);
    sent = true;
    // A string is a recorded chunk served straight from its producer (the log was unavailable).
    yield chunkOfLogEvent(typeof event === 'string' ? { data: event } : (event as SseMessageEvent));
  }
  if (sent) yield UI_MESSAGE_STREAM_DONE;
}

/** One logged event as the chunk it was recorded from; the log's `error` event as an `error` chunk. */
export function chunkOfLogEvent(event: SseMessageEvent): UiMessageChunk {
  const data = typeof event.data === 'string' ? event.data : JSON.stringify(event.data ?? null);
  if (event.type === 'error') {
    return { type: 'error', errorText: errorTextOf(data) };
  }
  try {
    const chunk: unknown = JSON.parse(data);
    if (
      typeof chunk === 'object' &&
      chunk !== null &&
      typeof (chunk as { type?: unknown }).type === 'string'
    ) {
      return chunk as UiMessageChunk;
    }
  } catch {
    // Not written by a ui-message producer: told as an error below.
  }
  return {
    type: 'error',
    errorText: 'The stream log holds an event that is not a UI message chunk',
  };
}

function errorTextOf(data: string): string {
  try {
    const parsed = JSON.parse(data) as { error?: unknown };
    if (typeof parsed.error === 'string') return parsed.error;
  } catch {
    // Fall through to the raw text.
  }
  return data;
}
