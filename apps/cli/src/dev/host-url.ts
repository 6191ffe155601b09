/**
 * The host to put in a URL: `0.0.0.0` and `::` listen everywhere and a browser reaches them as
 * localhost; IPv6 literals get brackets.
 *
 * @example
 * hostForUrl('0.0.0.0'); // 'localhost'
 */
export function hostForUrl(host: string): string {
  if (host === '0.0.0.0' || host === '::') return 'localhost';
  return host.includes(':') ? `[${host}]` : host;
}
