/**
 * SIGTERM mid-answer keeps the interrupted turn on Redis and PostgreSQL (issue 26): the chatbot
 * template runs in a child process, a stream starts, the process gets SIGTERM after a few
 * events, and once restarted on the same backend `/history` shows the question and the answer
 * so far, marked interrupted. Before, the memory backend closed before `recordTurn` wrote it.
 * Needs `npm run build` (the child imports the built `toolkit`) and the local Redis and
 * PostgreSQL (database `test`).
 */
import { afterAll, describe, expect, it } from '@jest/globals';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { SseParser } from 'toolkit/testing';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const APP = fileURLToPath(new URL('./fixtures/chatbot-backend.app.ts', import.meta.url));
const REGISTER = fileURLToPath(
  new URL('../../dist/apps/cli/src/runtime/register.js', import.meta.url),
);
const POSTGRES_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** A long question: the echo model answers it word by word, for several seconds. */
const QUESTION = Array.from({ length: 150 }, (_, i) => `word${i}`).join(' ');

interface AppProcess {
  child: ChildProcess;
  url: string;
}

const started: ChildProcess[] = [];

async function startApp(backend: string, prefix: string): Promise<AppProcess> {
  const child = spawn(process.execPath, ['--import', REGISTER, APP], {
    cwd: ROOT,
    env: { ...process.env, BACKEND: backend, PREFIX: prefix, POSTGRES_URL },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  started.push(child);
  const lines = createInterface({ input: child.stdout });
  for await (const line of lines) {
    const match = /^READY (\d+)$/.exec(line);
    if (match) return { child, url: `http://127.0.0.1:${match[1]}` };
  }
  throw new Error(`the ${backend} app exited before it was ready`);
}

afterAll(async () => {
  for (const child of started) {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL');
      await once(child, 'exit');
    }
  }
});

describe.each(['redis', 'postgres'])('SIGTERM mid-stream on %s', (backend) => {
  it('stores the interrupted turn before the backend closes; it is there after a restart', async () => {
    const prefix = `sigterm_${backend}_${process.pid}_${Date.now()}`;
    const first = await startApp(backend, prefix);
    const cleared = await fetch(`${first.url}/clear`, { method: 'POST' });
    const cookie = (cleared.headers.get('set-cookie') ?? '').split(';')[0];
    expect(cookie).not.toBe('');

    const res = await fetch(`${first.url}/chat/stream`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie },
      body: JSON.stringify({ message: QUESTION }),
    });
    expect(res.status).toBe(200);
    // Read a few words of the answer, then stop the process while it streams.
    const parser = new SseParser();
    const reader = res.body!.getReader();
    let received = '';
    while ((received.match(/word/g) ?? []).length < 3) {
      const { value, done } = await reader.read();
      if (done) throw new Error('the stream ended before the SIGTERM');
      for (const event of parser.feed(value)) {
        if (event.event === 'message') received += event.data;
      }
    }
    const exited = once(first.child, 'exit');
    first.child.kill('SIGTERM');
    const [code] = (await exited) as [number | null];
    expect(code).toBe(0);
    await reader.cancel().catch(() => undefined);

    const second = await startApp(backend, prefix);
    const history = (await (
      await fetch(`${second.url}/history`, { headers: { cookie } })
    ).json()) as { messages: { role: string; content: string; interrupted?: boolean }[] };
    expect(history.messages).toHaveLength(2);
    const [question, answer] = history.messages;
    expect(question).toEqual({ role: 'user', content: QUESTION });
    expect(answer).toMatchObject({ role: 'assistant', interrupted: true });
    // The answer as far as it got: at least what the client saw, and not the whole of it.
    expect(answer.content.startsWith(received)).toBe(true);
    expect((answer.content.match(/word/g) ?? []).length).toBeLessThan(150);
    await fetch(`${second.url}/clear`, { method: 'POST', headers: { cookie } });
    second.child.kill('SIGTERM');
    await once(second.child, 'exit');
  }, 60_000);
});
