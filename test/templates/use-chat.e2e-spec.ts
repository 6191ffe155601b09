/**
 * Issue 28: a React front end using the AI SDK's own `useChat` (`@ai-sdk/react`, with
 * `DefaultChatTransport`) talks to the generated chatbot and agent apps with no configuration.
 * The page (`test/front-end/use-chat/`) is built with Vite and served same-origin in front of
 * the app `toolkit new` generated and `toolkit dev` serves, on the offline echo model, and driven
 * in headless Chromium: what the client shows is compared with what the server stored.
 * Needs `npm run build` (the CLI from dist/) and the npm cache to install offline.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchChromium } from '../../apps/cli/test/support/chat-page-browser.js';
import { assertCliBuilt, REPO_ROOT } from '../../apps/cli/test/support/cli-process.js';
import {
  generateProject,
  npmInstall,
  runProgram,
  startDevServer,
  type DevServer,
  type GeneratedProject,
} from '../../apps/cli/test/support/generated-project.js';
import {
  buildUseChatPage,
  serveUseChatPage,
  USE_CHAT_PAGE,
  type UseChatFrontEnd,
} from './support/use-chat-page.js';

/**
 * The offline model's pace (ms a word): slow enough that Stop and a reload land mid-answer
 * (an answer is about 20 words), fast enough for the whole-answer tests.
 */
const ECHO_DELAY_MS = 100;

/** A stored message as `GET /api/chat/:id/messages` answers it (the parts the page reads). */
interface ServerMessage {
  id: string;
  role: string;
  parts: { type: string; text?: string; input?: unknown; output?: unknown }[];
  metadata?: { interrupted?: boolean };
}

/** The text parts of a server message, joined. */
const textOf = (message: ServerMessage | undefined) =>
  (message?.parts ?? []).map((part) => (part.type === 'text' ? (part.text ?? '') : '')).join('');

/**
 * Page script: from now on, records the last assistant message's text each time it changes,
 * into `window.answerSnapshots`, so a test sees what the client received, chunk after chunk.
 */
const RECORD_ANSWER_SNAPSHOTS = `(() => {
  const seen = (window.answerSnapshots = []);
  new MutationObserver(() => {
    const answers = document.querySelectorAll('[data-testid=message][data-role=assistant]');
    const text = answers[answers.length - 1]?.textContent;
    if (text && seen[seen.length - 1] !== text) seen.push(text);
  }).observe(document.getElementById('root'), { subtree: true, childList: true, characterData: true });
})()`;

/**
 * Page script: once the last assistant answer holds `words` words, runs `action` in the page
 * (clicking from the test takes a round trip per actionability check: on a loaded machine the
 * answer was over first). `window.actionDone` resolves when it ran.
 */
const whenAnswerHasWords = (
  words: number,
  action: string,
) => `void (window.actionDone = new Promise((resolve) => {
  const observer = new MutationObserver(() => {
    const answers = document.querySelectorAll('[data-testid=message][data-role=assistant]');
    const text = answers[answers.length - 1]?.textContent ?? '';
    if (text.trim().split(/\\s+/).length < ${words}) return;
    observer.disconnect();
    ${action};
    resolve(text);
  });
  observer.observe(document.getElementById('root'), { subtree: true, childList: true, characterData: true });
}))`;

/** The chat page of one browser context (one session), and what went wrong in it. */
interface ChatTab {
  page: Page;
  context: BrowserContext;
  problems: string[];
}

const TEMPLATES = ['chatbot', 'agent'] as const;

/** A generated project served by `toolkit dev`, with the page served in front of it. */
interface ServedProject {
  project: GeneratedProject;
  server?: DevServer;
  front?: UseChatFrontEnd;
}

const served = new Map<string, ServedProject>();
let browser: Browser | undefined;
const pageDir = mkdtempSync(join(tmpdir(), 'toolkit-use-chat-page-'));

// Both projects are generated, installed and started side by side while the page builds.
beforeAll(async () => {
  assertCliBuilt();
  const built = buildUseChatPage(pageDir);
  await Promise.all(
    TEMPLATES.map(async (template) => {
      const entry: ServedProject = {
        project: await generateProject(template, `use-chat-${template}`),
      };
      served.set(template, entry);
      await npmInstall(entry.project);
      entry.server = await startDevServer(entry.project, {
        TOOLKIT_LLM_ECHO_DELAY_MS: String(ECHO_DELAY_MS),
      });

      await built;
      entry.front = await serveUseChatPage(pageDir, entry.server.url);
    }),
  );
  browser = await launchChromium();
}, 300_000);
afterAll(async () => {
  await browser?.close();
  await Promise.all(
    [...served.values()].map(async ({ project, server, front }) => {
      await front?.close();
      await server?.kill();
      // Removed asynchronously, side by side: removing node_modules with rmSync blocked the
      // event loop for tens of seconds.
      await rm(dirname(project.dir), { recursive: true, force: true });
    }),
  );
  await rm(pageDir, { recursive: true, force: true });
}, 120_000);

describe.each(TEMPLATES)('useChat in Chromium against the %s template', (template) => {
  /** The page's origin for this template's app. */
  const front = () => served.get(template)!.front!;

  /** Opens the page in a fresh context (a new session), on a new chat or the one given. */
  async function openChat(chatId = ''): Promise<ChatTab> {
    const context = await browser!.newContext({ viewport: { width: 900, height: 640 } });
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(error.message));
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text());
    });
    await page.goto(`${front().url}/${chatId === '' ? '' : `#${chatId}`}`);
    await page.waitForSelector('[data-testid=chat][data-status=ready]');
    return { page, context, problems };
  }

  /** The chat id the page keeps in its address. */
  const chatIdOf = (page: Page) => decodeURIComponent(new URL(page.url()).hash.slice(1));

  /** What the server stored for the page's chat (with the page's session cookie). */
  function serverMessages(page: Page): Promise<ServerMessage[]> {
    return page.evaluate(async (id) => {
      const response = await fetch(`/api/chat/${encodeURIComponent(id)}/messages`);
      return (await response.json()) as ServerMessage[];
    }, chatIdOf(page));
  }

  /**
   * The chat's stored messages once `done` holds for them, asked again each time the last answer
   * came back (no fixed wait: the test's own timeout bounds it).
   */
  async function storedWhen(
    page: Page,
    done: (messages: ServerMessage[]) => boolean,
  ): Promise<ServerMessage[]> {
    for (;;) {
      const messages = await serverMessages(page);
      if (done(messages)) return messages;
      await page.waitForTimeout(50);
    }
  }

  /** Waits until the server stored the chat's answer marked interrupted (once it saw the stop). */
  async function storedInterrupted(page: Page): Promise<void> {
    await storedWhen(page, (messages) => messages[1]?.metadata?.interrupted === true);
  }

  /** Types a message and sends it with the Send button. */
  async function send(page: Page, text: string): Promise<void> {
    await page.fill('[data-testid=input]', text);
    await page.click('[data-testid=send]');
  }

  /** Waits until the chat is idle again after `count` messages are shown. */
  async function settled(page: Page, count: number): Promise<void> {
    await page.waitForFunction(
      `document.querySelectorAll('[data-testid=message]').length === ${count} &&
       document.querySelector('[data-testid=chat]').dataset.status === 'ready'`,
    );
  }

  /** The text of each message the page shows, with its role and interrupted mark. */
  function shown(page: Page): Promise<{ role: string; text: string; interrupted: boolean }[]> {
    return page.locator('[data-testid=message]').evaluateAll((items) =>
      items.map((item) => {
        const element = item as unknown as {
          dataset: Record<string, string | undefined>;
          querySelectorAll(selector: string): ArrayLike<{ textContent: string | null }>;
        };
        return {
          role: element.dataset.role ?? '',
          text: Array.from(element.querySelectorAll('[data-testid=text]'))
            .map((part) => part.textContent ?? '')
            .join(''),
          interrupted: element.dataset.interrupted === 'true',
        };
      }),
    );
  }

  async function closeChat(tab: ChatTab): Promise<void> {
    expect(await tab.page.locator('[data-testid=error]').count()).toBe(0);
    expect(tab.problems).toEqual([]);
    await tab.context.close();
  }

  it('streams the answer into useChat, and the server keeps the conversation', async () => {
    const tab = await openChat();
    const { page } = tab;
    expect(await serverMessages(page)).toEqual([]);
    await page.evaluate(RECORD_ANSWER_SNAPSHOTS);
    await send(page, 'Hello, my name is Ada');
    await settled(page, 2);
    const answer =
      'Nice to meet you, Ada! You said: "Hello, my name is Ada". This is the first message of our conversation.';
    expect(await shown(page)).toEqual([
      { role: 'user', text: 'Hello, my name is Ada', interrupted: false },
      { role: 'assistant', text: answer, interrupted: false },
    ]);
    // It arrived chunk by chunk, each state a prefix of the whole (nothing repeated or lost).
    const seen = await page.evaluate<string[]>('window.answerSnapshots');
    expect(seen.length).toBeGreaterThan(5);
    for (const text of seen) expect(answer.startsWith(text)).toBe(true);
    // What the client shows is what the server stored.
    const stored = await serverMessages(page);
    expect(stored.map((message) => [message.role, textOf(message)])).toEqual([
      ['user', 'Hello, my name is Ada'],
      ['assistant', answer],
    ]);

    // The model answers from the stored history: it remembers the name.
    await send(page, 'What is my name?');
    await settled(page, 4);
    const second = (await shown(page))[3];
    expect(second.text).toMatch(/^Your name is Ada\. This is message 2 of our conversation/);
    expect(textOf((await serverMessages(page))[3])).toBe(second.text);

    // Another session never reads this chat, even with its id.
    const stranger = await openChat(chatIdOf(page));
    expect(await shown(stranger.page)).toEqual([]);
    await closeChat(stranger);
    await closeChat(tab);
  }, 60_000);

  it('Stop ends the stream; the server keeps the partial answer, marked interrupted, shown after a reload', async () => {
    const tab = await openChat();
    const { page } = tab;
    await page.evaluate(
      whenAnswerHasWords(3, `document.querySelector('[data-testid=stop]').click()`),
    );
    // useChat's stop() only closes the connection; the page's DELETE stops the answer itself.
    const cancelled = page.waitForResponse((response) => response.request().method() === 'DELETE');
    await send(page, 'Please tell me a long story about the sea and the ships upon it');
    await page.evaluate('window.actionDone');
    expect(await (await cancelled).json()).toEqual({ stopped: true });
    await settled(page, 2);
    const partial = (await shown(page))[1].text;
    expect(partial).toMatch(/^You said: "Please/);
    expect(partial).not.toMatch(/conversation\.$/);
    // Nothing more arrives once stopped.
    expect(await page.isVisible('[data-testid=stop]')).toBe(false);

    // The server saw the stream stop and stored what it sent: the client's partial answer, or a
    // word more still in flight when Stop was pressed.
    await storedInterrupted(page);
    const stored = await serverMessages(page);
    const kept = textOf(stored[1]);
    expect(kept.startsWith(partial)).toBe(true);
    expect(kept.length - partial.length).toBeLessThan(30);
    expect(kept).not.toMatch(/conversation\.$/);

    await page.reload();
    await page.waitForSelector('[data-testid=chat][data-status=ready]');
    expect(await shown(page)).toEqual([
      {
        role: 'user',
        text: 'Please tell me a long story about the sea and the ships upon it',
        interrupted: false,
      },
      { role: 'assistant', text: kept, interrupted: true },
    ]);
    await closeChat(tab);
  }, 60_000);

  it('a reload mid-answer resumes the answer: every word once, as the server stored it', async () => {
    const tab = await openChat();
    const { page } = tab;
    const question = 'Tell me about the lighthouses of Brittany, their keepers and the storms';
    await page.evaluate(whenAnswerHasWords(3, 'location.reload()'));
    const reloaded = page.waitForEvent('load');
    // After the reload, useChat({ resume: true }) finds the answer running (a 200, not a 204).
    const resumed = page.waitForResponse(
      (response) =>
        response.request().method() === 'GET' &&
        response.url().endsWith('/stream') &&
        response.status() === 200,
    );
    await send(page, question);
    await reloaded;
    await page.evaluate(RECORD_ANSWER_SNAPSHOTS);
    await resumed;
    const answer = `You said: "${question}". This is the first message of our conversation.`;
    await page.waitForFunction(
      `[...document.querySelectorAll('[data-testid=message][data-role=assistant]')].some(
          (m) => m.textContent === ${JSON.stringify(answer)}) &&
         document.querySelector('[data-testid=chat]').dataset.status === 'ready'`,
    );
    const assistant = (await shown(page)).filter((message) => message.role === 'assistant');
    expect(assistant).toEqual([{ role: 'assistant', text: answer, interrupted: false }]);
    for (const text of await page.evaluate<string[]>('window.answerSnapshots')) {
      expect(answer.startsWith(text)).toBe(true);
    }
    expect(textOf((await storedWhen(page, (messages) => messages.length === 2))[1])).toBe(answer);

    // The page never saw its question (stored with the answer, once it ended); its next message
    // is still answered, from the server's history, which holds the question.
    await send(page, 'And the last one?');
    await page.waitForFunction(
      `document.querySelector('[data-testid=chat]').dataset.status === 'error' ||
       (document.querySelector('[data-testid=chat]').dataset.status === 'ready' &&
        document.querySelectorAll('[data-testid=message]').length === 3)`,
    );
    expect(await page.locator('[data-testid=error]').count()).toBe(0);
    const stored = await storedWhen(page, (messages) => messages.length === 4);
    expect(stored.map((message) => [message.role, textOf(message)])).toEqual([
      ['user', question],
      ['assistant', answer],
      ['user', 'And the last one?'],
      ['assistant', expect.stringContaining('This is message 2 of our conversation') as unknown],
    ]);
    await closeChat(tab);
  }, 60_000);

  it("the README's React client type-checks against @ai-sdk/react and ai, as the page does", async () => {
    const readme = served.get(template)!.project.read('README.md');
    expect(readme).toContain('## A React front end with `useChat`');
    expect(readme).not.toContain('TODO');
    const block = /```tsx\n([\s\S]*?)```/.exec(readme)?.[1] ?? '';
    expect(block).toContain(
      "useChat({ id, messages, resume: true, transport: new DefaultChatTransport({ api: '/api/chat' }) })",
    );
    // Beside the page, so it resolves React and the AI SDK from this repository.
    const dir = join(USE_CHAT_PAGE, `.readme-${template}`);
    mkdirSync(dir, { recursive: true });
    try {
      writeFileSync(join(dir, 'chat.tsx'), block);
      writeFileSync(
        join(dir, 'tsconfig.json'),
        JSON.stringify({ extends: '../tsconfig.json', include: ['chat.tsx', '../main.tsx'] }),
      );
      const tsc = join(REPO_ROOT, 'node_modules/typescript/bin/tsc');
      const result = await runProgram(process.execPath, [tsc, '-p', dir], {
        cwd: REPO_ROOT,
        timeoutMs: 60_000,
      });
      expect({ code: result.code, output: result.output }).toEqual({ code: 0, output: '' });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 60_000);

  if (template === 'agent') {
    it('shows a tool call as a tool part, with its input and output, then the answer', async () => {
      const tab = await openChat();
      const { page } = tab;
      await send(page, '/tool calculator {"expression":"2+3"}');
      await settled(page, 2);
      const tool = page.locator('[data-testid=message][data-role=assistant] [data-testid=tool]');
      expect(await tool.count()).toBe(1);
      expect(await tool.getAttribute('data-tool')).toBe('calculator');
      expect(await tool.getAttribute('data-state')).toBe('output-available');
      expect(JSON.parse((await tool.locator('[data-testid=tool-input]').textContent())!)).toEqual({
        expression: '2+3',
      });
      expect(await tool.locator('[data-testid=tool-output]').textContent()).toBe('5');
      const answer = (await shown(page))[1].text;
      expect(answer).toBe('Tool calculator returned 5.');
      expect(textOf((await serverMessages(page))[1])).toBe(answer);

      // After a reload the server's messages show the same tool part (memory keeps tool steps).
      await page.reload();
      await page.waitForSelector('[data-testid=chat][data-status=ready]');
      expect(await tool.getAttribute('data-state')).toBe('output-available');
      expect(await tool.locator('[data-testid=tool-output]').textContent()).toBe('5');
      expect((await shown(page))[1].text).toBe(answer);
      await closeChat(tab);
    }, 60_000);
  }
});
