import { describe, expect, it } from '@jest/globals';
import { createHash } from 'node:crypto';
import { pageSecurityPolicy } from './page-security-policy.js';

const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

describe('pageSecurityPolicy', () => {
  it('allows each inline script and style by the hash of its exact text', () => {
    const html =
      '<style>a{}</style><style media="print">b{}</style>' +
      '<script>one()</script><script type="module">\n  two();\n</script>';
    const policy = pageSecurityPolicy(html);
    expect(policy).toContain(`script-src 'self' ${sha256('one()')} ${sha256('\n  two();\n')};`);
    expect(policy).toContain(`style-src 'self' ${sha256('a{}')} ${sha256('b{}')};`);
  });

  it('hashes no script loaded from a file, and allows nothing inline without blocks', () => {
    const policy = pageSecurityPolicy('<script src="/app.js"></script><p>hi</p>');
    expect(policy).toContain("script-src 'self';");
    expect(policy).toContain("style-src 'self';");
    expect(policy).not.toContain('unsafe-inline');
  });

  it('forbids framing, plugins, <base> and requests to other origins', () => {
    const policy = pageSecurityPolicy('<p>hi</p>');
    for (const directive of [
      "default-src 'none'",
      "connect-src 'self'",
      "object-src 'none'",
      "base-uri 'none'",
      "frame-ancestors 'none'",
    ]) {
      expect(policy).toContain(directive);
    }
  });

  it('gives the same policy for the same page', () => {
    const html = '<script>same()</script>';
    expect(pageSecurityPolicy(html)).toBe(pageSecurityPolicy(html));
  });
});
