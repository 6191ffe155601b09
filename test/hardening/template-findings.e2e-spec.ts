/**
 * The attack's lower findings on the templates, each checked where it was found: the chat pages
 * of the chatbot and agent templates carry security headers and a Content-Security-Policy that
 * allows exactly their own inline script and style (no `X-Powered-By`); the agent's `/generate`
 * refuses styles only an object inherits (`__proto__`, `constructor`, ...); a NUL or another
 * control character in `user_id` is a 422, never a 5xx.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createHash } from 'node:crypto';
import { send } from './support/http-client.js';
import { serve, type ServedApp } from './support/served-app.js';
import { TEMPLATE_APPS } from './support/template-apps.js';

const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

async function serveTemplate(name: string): Promise<ServedApp> {
  const template = TEMPLATE_APPS.find((app) => app.name === name);
  if (!template) throw new Error(`no template app named ${name}`);
  return serve(name, await template.create(), template.headers);
}

describe.each(['templates/chatbot', 'templates/agent'])('%s', (name) => {
  let served: ServedApp;

  beforeAll(async () => {
    served = await serveTemplate(name);
  });

  afterAll(async () => {
    await served.close();
  });

  it('serves its chat page with security headers and a policy allowing its inline code', async () => {
    const page = await send(served.base, { method: 'GET', path: '/' });
    expect(page.status).toBe(200);
    expect(page.headers['x-powered-by']).toBeUndefined();
    expect(page.headers['x-content-type-options']).toBe('nosniff');
    expect(page.headers['x-frame-options']).toBe('DENY');
    const policy = String(page.headers['content-security-policy']);
    expect(policy).toContain("frame-ancestors 'none'");
    expect(policy).not.toContain('unsafe-inline');
    const inline = [...page.body.matchAll(/<(script|style)>([\s\S]*?)<\/\1>/g)];
    expect(inline.length).toBeGreaterThanOrEqual(2);
    for (const [, tag, code] of inline) {
      expect(policy).toContain(`${tag}-src 'self' `);
      expect(policy).toContain(sha256(code ?? ''));
    }
  });

  it.each([
    ['NUL', 'a\u0000b', 'user_id'],
    ['another control character', 'a\u0001b', 'userId'],
  ])('answers %s in user_id with a 422 naming the id', async (_what, userId, param) => {
    const res = await send(served.base, {
      method: 'POST',
      path: '/chat',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ message: 'hi', user_id: userId }),
    });
    expect(res.status).toBe(422);
    const body = JSON.parse(res.body) as { details: { param: string }[] };
    expect(body.details).toEqual([expect.objectContaining({ param })]);
  });
});

describe('templates/agent /generate', () => {
  let served: ServedApp;

  beforeAll(async () => {
    served = await serveTemplate('templates/agent');
  });

  afterAll(async () => {
    await served.close();
  });

  it.each(['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf'])(
    'refuses the style "%s" with a 422 naming style',
    async (style) => {
      const res = await send(served.base, {
        method: 'POST',
        path: '/generate',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ prompt: 'hello', style }),
      });
      expect(res.status).toBe(422);
      const body = JSON.parse(res.body) as { details: { param: string }[] };
      expect(body.details).toEqual([expect.objectContaining({ param: 'style' })]);
    },
  );

  it('still generates in a style of its table', async () => {
    const res = await send(served.base, {
      method: 'POST',
      path: '/generate',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ prompt: 'hello', style: 'formal' }),
    });
    expect(res.status).toBe(200);
  });
});
