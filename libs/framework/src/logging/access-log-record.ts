/** The fields of one access log line. */
export interface AccessLogFields {
  /** The request's id (`X-Request-Id`). */
  requestId: string;
  /** The request's method. */
  method: string;
  /** The matched route's pattern (`/chats/:id`), never the raw path; `null` when none matched. */
  route: string | null;
  /** The status sent. */
  status: number;
  /** From the request's arrival to the last byte of the answer (or the client leaving). */
  durationMs: number;
  /** Body bytes written. */
  bytes: number;
  /** For a stream (SSE): time to its first event; for a streamed LLM answer, about the time to first token. */
  firstByteMs?: number;
  /** The client left before the answer was complete. */
  aborted?: boolean;
  /** LLM routes: the model of the request's last call. */
  model?: string;
  /** LLM routes: the provider of its last call. */
  provider?: string;
  /** LLM routes: prompt tokens, summed over the request's calls. */
  inputTokens?: number;
  /** LLM routes: generated tokens, summed over the request's calls. */
  outputTokens?: number;
  /** LLM routes: USD, summed over the request's calls, when every call's price is known. */
  costUsd?: number;
  /** LLM routes: ms to the first token of the request's first streamed call (none unstreamed). */
  timeToFirstTokenMs?: number;
}

/**
 * One access log line: the message toolkit logs (context `Access`) once a request is over, when
 * `app.access_log` is on. Toolkit's logger writes it as text (`GET /chats/:id 200 12ms 1234B`) or,
 * with `app.log_format: json`, as fields of the JSON line; a `LoggerService` of yours gets this
 * object (`String(record)` is the text, `JSON.stringify(record)` the fields).
 */
export class AccessLogRecord {
  constructor(readonly fields: Readonly<AccessLogFields>) {}

  /**
   * `GET /chats/:id 200 12ms 1234B model=gpt-4o-mini tokens=12+40 cost=$0.000026`, and
   * `first-token=210ms` after it for a streamed call.
   */
  toString(): string {
    const f = this.fields;
    const parts = [
      f.method,
      f.route ?? '(no route)',
      String(f.status),
      `${f.durationMs}ms`,
      `${f.bytes}B`,
    ];
    if (f.aborted) parts.push('aborted');
    if (f.firstByteMs !== undefined) parts.push(`first-event=${f.firstByteMs}ms`);
    if (f.model !== undefined) parts.push(`model=${f.model}`);
    if (f.inputTokens !== undefined) parts.push(`tokens=${f.inputTokens}+${f.outputTokens ?? 0}`);
    if (f.costUsd !== undefined) parts.push(`cost=$${f.costUsd.toFixed(6)}`);
    if (f.timeToFirstTokenMs !== undefined) parts.push(`first-token=${f.timeToFirstTokenMs}ms`);
    return parts.join(' ');
  }

  /** The fields and the text (`message`), for loggers that serialise what they are given. */
  toJSON(): AccessLogFields & { message: string } {
    return { message: this.toString(), ...this.fields };
  }
}
