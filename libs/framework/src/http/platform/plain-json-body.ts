import type { IncomingMessage } from 'node:http';
import { BodyError } from './body.error.js';

/** `application/json`, alone or with a UTF-8 charset: the bodies read without body-parser. */
const PLAIN_JSON = /^application\/json(?:[ \t]*;[ \t]*charset=(?:utf-8|"utf-8"))?$/i;
const DIGITS = /^\d{1,15}$/;
/** JSON's whitespace (RFC 8259): space, tab, line feed, carriage return. */
const WHITESPACE = /^[ \t\n\r]*/;
const BYTE_ORDER_MARK = 0xfeff;

/**
 * The length of a body this module reads itself: a plain JSON body with a `Content-Length`
 * within `limit`, neither compressed nor chunked. Anything else (`undefined`) goes to
 * body-parser, which answers every unusual case (charsets, encodings, sizes).
 */
export function plainJsonLength(raw: IncomingMessage, limit: number): number | undefined {
  const { headers } = raw;
  const type = headers['content-type'];
  const length = headers['content-length'];
  if (type === undefined || length === undefined || !PLAIN_JSON.test(type)) return undefined;
  if (headers['content-encoding'] !== undefined || headers['transfer-encoding'] !== undefined) {
    return undefined;
  }
  if (!DIGITS.test(length)) return undefined;
  const bytes = Number(length);
  return bytes <= limit ? bytes : undefined;
}

/**
 * Reads and parses a body {@link plainJsonLength} accepted, with body-parser's strict rules and
 * messages: an empty body is `{}`, a byte-order mark is dropped, a top-level value that is not
 * an object or array is a 400 whose message names what the parser met there.
 */
export function readPlainJson(
  raw: IncomingMessage,
  length: number,
  done: (error: Error | null, body?: unknown) => void,
): void {
  const chunks: Buffer[] = [];
  let received = 0;
  let settled = false;
  // Settled once: the listeners stay (removing four costs more than they hold on to), later
  // events of the request are ignored.
  const finish = (error: Error | null, body?: unknown) => {
    if (settled) return;
    settled = true;
    done(error, body);
  };
  raw.on('data', (chunk: Buffer) => {
    received += chunk.length;
    chunks.push(chunk);
  });
  raw.on('end', () => {
    if (received !== length) {
      finish(
        new BodyError(400, 'request size did not match content length', 'request.size.invalid'),
      );
      return;
    }
    const bytes = chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, received);
    let text = bytes.toString('utf8');
    if (text.charCodeAt(0) === BYTE_ORDER_MARK) text = text.slice(1);
    let body: unknown;
    try {
      body = parseStrict(text);
    } catch (error) {
      finish(new BodyError(400, (error as Error).message, 'entity.parse.failed'));
      return;
    }
    finish(null, body);
  });
  raw.on('error', (error: Error) => finish(error));
  raw.on('aborted', () => finish(new BodyError(400, 'request aborted', 'request.aborted')));
}

/** `JSON.parse` for a body: only an object or an array at the top, as body-parser's `strict`. */
function parseStrict(text: string): unknown {
  if (text.length === 0) return {};
  if (text[0] !== '{' && text[0] !== '[') {
    // Only whitespace: left to JSON.parse, whose message is then body-parser's too.
    const first = text[WHITESPACE.exec(text)![0].length];
    if (first !== undefined && first !== '{' && first !== '[') throw strictError(text, first);
  }
  return JSON.parse(text) as unknown;
}

/**
 * The error `JSON.parse` gives when it meets `first` where the body's value starts: everything
 * from there is masked so the parser stops at it, then the mask is replaced with the body's own
 * characters, so the message quotes the body as a parse error of it would.
 */
function strictError(text: string, first: string): Error {
  const at = text.indexOf(first);
  const masked = text.slice(0, at) + '#'.repeat(text.length - at);
  try {
    JSON.parse(masked);
  } catch (error) {
    const message = (error as Error).message.replace(/#+/g, (run) =>
      text.slice(at, at + run.length),
    );
    return new SyntaxError(message);
  }
  return new SyntaxError(`Unexpected token '${first}'`);
}
