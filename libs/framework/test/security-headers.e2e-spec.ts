/**
 * Security headers: no answer says `X-Powered-By`; every answer carries
 * `X-Content-Type-Options: nosniff` and `X-Frame-Options: DENY`; an HTML page a route returns
 * gets a Content-Security-Policy that allows exactly its own inline script and style. Also
 * checks that the chat pages the templates serve work under that policy (nothing in them it
 * would block). Runs on Express and Fastify.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Controller, Header } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App, Arg, HealthController, Route } from 'toolkit';
import { pageSecurityPolicy } from '../src/http/page-security-policy.js';

const SCRIPT = "document.body.dataset.ready = 'yes';";
const STYLE = 'body { margin: 0; }';
const PAGE = `<!doctype html><html><head><style>${STYLE}</style></head><body><script>${SCRIPT}</script></body></html>`;

const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

@Controller()
class PagesController {
  @Route('/', { methods: ['GET'] })
  @Header('Content-Type', 'text/html; charset=utf-8')
  page(): string {
    return PAGE;
  }

  @Route('/echo', { methods: ['POST'] })
  echo(@Arg('text') text: string) {
    return { text };
  }
}

let app: App;
let cwd: string;
let base: string;

beforeAll(async () => {
  cwd = mkdtempSync(join(tmpdir(), 'toolkit-headers-'));
  app = new App({ cwd, logger: false, controllers: [HealthController, PagesController] });
  const server = await app.run({ host: '127.0.0.1', port: 0, announce: false });
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await app.close();
  rmSync(cwd, { recursive: true, force: true });
});

describe('security headers on every answer', () => {
  it.each([
    ['a JSON route', () => fetch(`${base}/health`)],
    ['an HTML page', () => fetch(`${base}/`)],
    ['a 404', () => fetch(`${base}/nowhere`)],
    ['a 422', () => fetch(`${base}/echo`, { method: 'POST' })],
    [
      'a 400 of the body parser',
      () =>
        fetch(`${base}/echo`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: '{"text": ',
        }),
    ],
  ])('%s: nosniff, no framing, no X-Powered-By', async (_what, request) => {
    const response = await request();
    await response.arrayBuffer();
    expect(response.headers.get('x-powered-by')).toBeNull();
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('x-frame-options')).toBe('DENY');
  });
});

describe('Content-Security-Policy of HTML pages', () => {
  it('allows exactly the page’s own inline script and style, and no framing', async () => {
    const response = await fetch(`${base}/`);
    expect(await response.text()).toBe(PAGE);
    const policy = response.headers.get('content-security-policy') ?? '';
    expect(policy).toContain("default-src 'none'");
    expect(policy).toContain(`script-src 'self' ${sha256(SCRIPT)}`);
    expect(policy).toContain(`style-src 'self' ${sha256(STYLE)}`);
    expect(policy).toContain("frame-ancestors 'none'");
    expect(policy).not.toContain('unsafe-inline');
  });

  it('is not set on JSON answers', async () => {
    const response = await fetch(`${base}/health`);
    expect(response.headers.get('content-security-policy')).toBeNull();
  });
});

describe.each(['chatbot', 'agent'])('the %s template’s chat page under its policy', (template) => {
  const html = readFileSync(
    new URL(`../../../templates/${template}/public/index.html`, import.meta.url),
    'utf8',
  );
  const policy = pageSecurityPolicy(html);

  it('has every inline script and style allowed by hash', () => {
    const blocks = [
      ...[...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1] ?? ''),
      ...[...html.matchAll(/<style>([\s\S]*?)<\/style>/g)].map((m) => m[1] ?? ''),
    ];
    expect(blocks.length).toBeGreaterThan(0);
    for (const block of blocks) expect(policy).toContain(sha256(block));
  });

  it('uses nothing the policy blocks: no inline handlers, style attributes or outside sources', () => {
    expect(html).not.toMatch(/\son[a-z]+\s*=/i);
    expect(html).not.toMatch(/\sstyle\s*=/i);
    expect(html).not.toMatch(/javascript:/i);
    expect(html).not.toMatch(/<script[^>]*\ssrc\s*=/i);
    expect(html).not.toMatch(/\b(?:src|href)\s*=\s*["']?(?:https?:)?\/\//i);
    expect(html).not.toMatch(/\b(?:eval|new Function)\s*\(/);
    expect(html).not.toMatch(/setAttribute\(\s*['"]style['"]/);
  });
});
