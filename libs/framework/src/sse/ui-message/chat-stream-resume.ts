import type { ServerResponse } from 'node:http';
import type { SseMessageEvent } from '../sse-event.js';

/**
 * What `ResumableStreams.resumeChat()` returns: the running answer of an AI SDK chat, for a
 * `@Stream({ format: 'ui-message' })` route to return as it is — the route `useChat({ resume:
 * true })` calls (`GET {api}/{chatId}/stream`). The stream replays the answer from its start and
 * follows it live; when the chat has no answer running it answers `204 No Content`, which the AI
 * SDK reads as nothing to resume.
 */
export class ChatStreamResume {
  /** @param events the log's events of the running answer, for the response that reads them */
  constructor(private readonly events: (res: ServerResponse) => AsyncGenerator<SseMessageEvent>) {}

  /** The answer's events, for `res` (read by the stream's pump, not by routes). */
  open(res: ServerResponse): AsyncGenerator<SseMessageEvent> {
    return this.events(res);
  }
}
