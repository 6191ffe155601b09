/**
 * `host:port/db` of a backend URL for error messages: never the user name or password, and
 * nothing at all if the URL cannot be parsed (it might be a password typed in the wrong place).
 *
 * @example
 * backendAddress('redis://:s3cret@cache.internal:6380/2'); // 'cache.internal:6380/2'
 */
export function backendAddress(url: string): string {
  try {
    const parsed = new URL(url);
    const path = parsed.pathname && parsed.pathname !== '/' ? parsed.pathname : '';
    return `${parsed.host}${path}` || 'an unparseable URL';
  } catch {
    return 'an unparseable URL';
  }
}

/** A short reason from a driver error: its code (`ECONNREFUSED`) or first line, secrets removed. */
export function errorReason(error: unknown, url: string): string {
  if (error === undefined || error === null) return 'not connected';
  const err = error as { code?: unknown; message?: unknown };
  const raw =
    typeof err.code === 'string' && /^[A-Z_]+$/.test(err.code)
      ? err.code
      : typeof err.message === 'string'
        ? err.message.split('\n')[0]
        : typeof error === 'string'
          ? error
          : 'unknown error';
  return redact(raw, url);
}

function redact(text: string, url: string): string {
  try {
    const { password } = new URL(url);
    if (!password) return text;
    return text.split(decodeURIComponent(password)).join('***').split(password).join('***');
  } catch {
    return text;
  }
}
