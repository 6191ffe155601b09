import { createHash } from 'node:crypto';

/** Headers every answer carries: no MIME sniffing, no framing by another site. */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
};

const INLINE_SCRIPT = /<script\b(?![^>]*\bsrc\s*=)[^>]*>([\s\S]*?)<\/script\s*>/gi;
const INLINE_STYLE = /<style\b[^>]*>([\s\S]*?)<\/style\s*>/gi;

/** Pages seen, with their policy: a page is usually one constant string served again and again. */
const known = new Map<string, string>();
const KNOWN_MAX = 64;

function hashes(html: string, pattern: RegExp): string[] {
  return [...html.matchAll(pattern)].map(
    (match) =>
      `'sha256-${createHash('sha256')
        .update(match[1] ?? '', 'utf8')
        .digest('base64')}'`,
  );
}

/**
 * The Content-Security-Policy of an HTML page: its own inline `<script>` and `<style>` blocks
 * allowed by their SHA-256 hashes (so an injected one never runs), scripts and styles from the
 * same origin, requests (`fetch`, `EventSource`) to the same origin only, images from the same
 * origin or `data:` URLs, no plugins, no `<base>`, forms posting to the same origin and no
 * framing by any site.
 *
 * @example
 * res.setHeader('Content-Security-Policy', pageSecurityPolicy(html));
 */
export function pageSecurityPolicy(html: string): string {
  const cached = known.get(html);
  if (cached !== undefined) return cached;
  const policy = [
    "default-src 'none'",
    `script-src ${["'self'", ...hashes(html, INLINE_SCRIPT)].join(' ')}`,
    `style-src ${["'self'", ...hashes(html, INLINE_STYLE)].join(' ')}`,
    "connect-src 'self'",
    "img-src 'self' data:",
    "font-src 'self'",
    "manifest-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
  if (known.size >= KNOWN_MAX) known.clear();
  known.set(html, policy);
  return policy;
}
