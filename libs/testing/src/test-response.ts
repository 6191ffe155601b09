import { SseParser, type SseEvent } from './sse-parser.js';

/**
 * A finished response as a test sees it.
 *
 * @example
 * const res = await client.post('/chat', { json: { message: 'hi' } });
 * expect(res.statusCode).toBe(200);
 * expect(res.json()).toEqual({ response: expect.any(String) });
 */
export class TestResponse {
  /** HTTP status code. */
  readonly statusCode: number;
  /** Response headers, keys in lower case. */
  readonly headers: Readonly<Record<string, string>>;
  private readonly body: Buffer;

  constructor(
    statusCode: number,
    headers: Record<string, string | string[] | number | undefined>,
    body: Buffer,
  ) {
    this.statusCode = statusCode;
    this.headers = Object.fromEntries(
      Object.entries(headers)
        .filter((entry): entry is [string, string | string[] | number] => entry[1] !== undefined)
        .map(([name, value]) => [
          name.toLowerCase(),
          Array.isArray(value) ? value.join(', ') : String(value),
        ]),
    );
    this.body = body;
  }

  /** The body as UTF-8 text. */
  text(): string {
    return this.body.toString('utf8');
  }

  /** The body parsed as JSON; throws a readable error when it is not JSON. */
  json<T = unknown>(): T {
    const text = this.text();
    try {
      return JSON.parse(text) as T;
    } catch {
      const shown = text.length > 200 ? `${text.slice(0, 200)}...` : text;
      throw new Error(`Response body is not JSON (status ${this.statusCode}): ${shown}`);
    }
  }

  /** The body parsed as Server-Sent Events (comments such as `: ping` are skipped). */
  events(): SseEvent[] {
    const parser = new SseParser();
    return [...parser.feed(this.body), ...parser.end()];
  }
}
