import { expect } from '@jest/globals';
import { once } from 'node:events';
import { connect, createServer, type AddressInfo, type Socket } from 'node:net';
import type { Browser, Page } from 'playwright-core';

/**
 * A page predicate for `waitForFunction`, given as a function rather than a string: Playwright
 * runs a string predicate through `eval` in the page, which the pages' Content-Security-Policy
 * forbids (no `unsafe-eval`); a function it passes over the DevTools protocol instead.
 */
function inPage(expression: string): () => unknown {
  // eslint-disable-next-line @typescript-eslint/no-implied-eval -- built here, run in the page
  return new Function(`return (${expression});`) as () => unknown;
}

/** Opens the chat page in a fresh browser context (its own cookies: a new session). */
async function openChat(
  browser: Browser,
  url: string,
): Promise<{ page: Page; close: () => Promise<void> }> {
  const context = await browser.newContext({ viewport: { width: 900, height: 640 } });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(error.message));
  await page.goto(`${url}/`);
  return {
    page,
    close: async () => {
      expect(problems).toEqual([]);
      await context.close();
    },
  };
}

/**
 * The chat page's Stop button: it aborts the stream mid-answer, the partial answer stays marked
 * stopped, and after a reload the server's history shows it the same way. The page also says
 * which model answers, plainly that the offline `echo` does (the generated apps run without a key).
 */
export async function expectStopSurvivesReload(browser: Browser, url: string): Promise<void> {
  // The page's observer may see the answer only once it is over when the browser is stalled for
  // its whole stream (a loaded machine); then the same check runs again in a new session with a
  // message twice as long, so the answer lasts twice as long: a limit set by what the machine
  // managed, not by a number of seconds.
  let sentence = 'Please tell me a long story about the sea and the ships upon it';
  for (let attempt = 1; ; attempt += 1) {
    const { page, close } = await openChat(browser, url);
    const partial = await stopMidAnswer(page, sentence);
    if (partial !== undefined) {
      await expectStoppedAfterReload(page, sentence, partial);
      await close();
      return;
    }
    await close();
    if (attempt === 4) {
      throw new Error(
        `Stop was never visible mid-answer in ${attempt} tries (the answer was over first)`,
      );
    }
    sentence = `${sentence} and ${sentence}`;
  }
}

/**
 * Sends `message` and presses Stop once a few words of the answer arrived. Resolves to the
 * partial answer the page keeps, or to `undefined` when the answer was over before the page
 * could press Stop.
 */
async function stopMidAnswer(page: Page, message: string): Promise<string | undefined> {
  await page.waitForFunction(inPage(`document.getElementById('model').textContent !== 'Model: …'`));
  expect(await page.textContent('#model')).toMatch(/^Model: echo \(offline/);
  await page.fill('#input', message);
  // Stop once a few words arrived (the echo model streams a word every echo_delay_ms). The page
  // clicks it itself, from an observer of the answer: clicking from here takes a round trip per
  // actionability check, and on a loaded machine the answer was over first. The observer also
  // tells when the answer ended without a click, rather than waiting forever.
  // (`void`: evaluate would otherwise wait for the promise, which needs the Enter below.)
  await page.evaluate(`void (window.stopClicked = new Promise((resolve) => {
    const observer = new MutationObserver(() => {
      const answer = document.querySelector('.message.assistant');
      const text = answer?.textContent ?? '';
      const stop = document.getElementById('stop');
      if (answer && text && !answer.hasAttribute('data-streaming')) {
        observer.disconnect();
        resolve(false);
        return;
      }
      if (text.trim().split(/\\s+/).length < 3 || stop.hidden) return;
      observer.disconnect();
      stop.click();
      resolve(true);
    });
    observer.observe(document.getElementById('messages'), {
      childList: true,
      subtree: true,
      characterData: true,
      attributes: true,
    });
  }))`);
  await page.keyboard.press('Enter');
  if ((await page.evaluate('window.stopClicked')) !== true) return undefined;
  const answer = page.locator('.message.assistant').first();
  await answer.and(page.locator('[data-stopped]')).waitFor();
  const partial = (await answer.textContent()) ?? '';
  expect(partial.length).toBeGreaterThan(0);
  expect(partial).toMatch(/^You said: "Please/);
  expect(partial).not.toMatch(/conversation\.$/);
  expect(await page.isVisible('#send')).toBe(true);
  return partial;
}

/** After a reload, the server's history shows the stopped answer as the page kept it. */
async function expectStoppedAfterReload(
  page: Page,
  message: string,
  partial: string,
): Promise<void> {
  // The server stored the partial answer, marked interrupted, once it saw the stream stop.
  await page.waitForFunction(
    inPage(`fetch('/history')
    .then((res) => res.json())
    .then((body) => body.messages.some((message) => message.interrupted === true))`),
  );
  await page.reload();
  const restored = page.locator('.message.assistant[data-stopped]');
  await restored.waitFor();
  // The server keeps what it sent: the page's partial answer, or a word more still in flight
  // when Stop was pressed.
  const kept = (await restored.textContent()) ?? '';
  expect(kept.startsWith(partial)).toBe(true);
  expect(kept.length - partial.length).toBeLessThan(30);
  expect(await page.locator('.message.user').textContent()).toBe(message);
}

/** An answer's markdown becomes elements; any HTML in it stays text (no element, no script). */
export async function expectSafeMarkdown(browser: Browser, url: string): Promise<void> {
  const { page, close } = await openChat(browser, url);
  await page.evaluate('window.injected = 0');
  // The offline model quotes the message back, so the answer carries whatever the user typed.
  const ask = async (message: string) => {
    const before = await page.locator('.message.assistant').count();
    await page.fill('#input', message);
    await page.keyboard.press('Enter');
    const answer = page.locator('.message.assistant').nth(before);
    await answer.and(page.locator(':not([data-streaming])')).waitFor();
    return answer;
  };
  const img = await ask('Run `npm test` **now** <img src=x onerror="window.injected=1">');
  expect(await img.textContent()).toContain('<img src=x onerror="window.injected=1">');
  expect(await img.locator('code').first().textContent()).toBe('npm test');
  expect(await img.locator('strong').first().textContent()).toBe('now');
  const script = await ask('<script>window.injected=2</script>');
  expect(await script.textContent()).toContain('<script>window.injected=2</script>');
  expect(await page.locator('#messages img, #messages script').count()).toBe(0);

  // Block markdown (the offline model flattens lines, so the page's renderer is called directly).
  const rendered = await page.evaluate(`(() => {
    const target = document.createElement('div');
    renderMarkdown(target, ${JSON.stringify(
      '# Title\nSome *text*.\n\n- one\n- two <b>x</b>\n\n1. first\n2. second\n\n```js\nconst a = "<img src=x onerror=alert(1)>";\n```',
    )});
    return {
      tags: [...target.querySelectorAll('*')].map((node) => node.tagName.toLowerCase()),
      items: [...target.querySelectorAll('li')].map((node) => node.textContent),
      code: target.querySelector('pre code')?.textContent,
      lang: target.querySelector('pre code')?.dataset.lang,
    };
  })()`);
  expect(rendered).toEqual({
    tags: ['h3', 'p', 'em', 'ul', 'li', 'li', 'ol', 'li', 'li', 'pre', 'code'],
    items: ['one', 'two <b>x</b>', 'first', 'second'],
    code: 'const a = "<img src=x onerror=alert(1)>";',
    lang: 'js',
  });
  expect(await page.evaluate('window.injected')).toBe(0);
  await close();
}

/** A TCP proxy in front of the app whose connections the test can cut, as a network would. */
async function droppableProxy(target: string): Promise<{
  url: string;
  drop: () => number;
  close: () => Promise<void>;
}> {
  const { hostname, port } = new URL(target);
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    const upstream = connect(Number(port), hostname);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => undefined);
    }
    client.pipe(upstream).pipe(client);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    drop: () => {
      const count = sockets.size;
      for (const socket of sockets) socket.destroy();
      return count;
    },
    close: async () => {
      for (const socket of sockets) socket.destroy();
      server.close();
      await once(server, 'close');
    },
  };
}

/**
 * A dropped connection mid-answer (every connection of the browser cut, as when a phone changes
 * network): the page reconnects with the last event id and the answer completes, every word
 * once, and the server stored the same whole answer.
 */
export async function expectResumeAfterDrop(browser: Browser, url: string): Promise<void> {
  const proxy = await droppableProxy(url);
  const { page, close } = await openChat(browser, proxy.url);
  await page.waitForFunction(inPage(`document.getElementById('model').textContent !== 'Model: …'`));
  await page.fill('#input', 'Please tell me a long story about the sea and the ships upon it');
  await page.keyboard.press('Enter');
  await page.waitForFunction(
    inPage(
      `(document.querySelector('.message.assistant')?.textContent ?? '').split(' ').length >= 3`,
    ),
  );
  expect(proxy.drop()).toBeGreaterThan(0);
  const answer = page.locator('.message.assistant').first();
  await answer.and(page.locator(':not([data-streaming])')).waitFor({ timeout: 20_000 });
  const text = (await answer.textContent()) ?? '';
  expect(await page.locator('.message.error').count()).toBe(0);
  expect(await answer.getAttribute('data-stopped')).toBeNull();
  expect(text).toMatch(
    /^You said: "Please tell me a long story about the sea and the ships upon it"/,
  );
  // The whole answer, once, and the server's copy is the same text.
  const stored = await page.evaluate<{ role: string; content: string; interrupted?: boolean }[]>(
    "fetch('/history').then((res) => res.json()).then((body) => body.messages)",
  );
  expect(stored.map((m) => m.role)).toEqual(['user', 'assistant']);
  expect(stored[1]?.content).toBe(text);
  expect(stored[1]?.interrupted).toBeUndefined();
  await close();
  await proxy.close();
}

/**
 * The agent's tool steps: a `/tool` message (the offline echo model's rule) shows the call as a
 * step before the answer, then its result; a failing tool shows its error, the answer follows,
 * and a tool argument holding HTML stays text. A reload shows the same steps from `/history`.
 */
export async function expectToolSteps(browser: Browser, url: string): Promise<void> {
  const { page, close } = await openChat(browser, url);
  await page.fill('#input', '/tool calculator {"expression": "2 * (3 + 4)"}');
  await page.keyboard.press('Enter');
  const step = page.locator('.message.tool[data-state="done"]');
  await step.waitFor();
  expect(await step.textContent()).toBe('Using calculator({"expression":"2 * (3 + 4)"}) → 14');
  const answer = page.locator('.message.assistant').first();
  await page.waitForFunction(
    inPage(
      `document.querySelector('.message.assistant')?.textContent === 'Tool calculator returned 14.'`,
    ),
  );
  // The step sits above the answer it served.
  expect(
    await page.evaluate(`(() => {
      const [tool, assistant] = ['.message.tool', '.message.assistant'].map((s) => document.querySelector(s));
      return Boolean(tool.compareDocumentPosition(assistant) & Node.DOCUMENT_POSITION_FOLLOWING);
    })()`),
  ).toBe(true);
  expect(await answer.getAttribute('data-streaming')).toBeNull();

  await page.fill('#input', '/tool calculator {"expression": "<img src=x onerror=alert(1)> / 0"}');
  await page.keyboard.press('Enter');
  const failed = page.locator('.message.tool[data-state="failed"]');
  await failed.waitFor();
  expect(await failed.textContent()).toMatch(/^Using calculator\(.*<img src=x.*\) failed: /);
  expect(await page.locator('.message.tool img').count()).toBe(0);
  await page.waitForFunction(
    inPage(
      `[...document.querySelectorAll('.message.assistant')].at(-1)?.textContent.startsWith('Tool calculator failed')`,
    ),
  );
  await page.waitForFunction(inPage(`!document.querySelector('[data-streaming]')`));
  // After a reload the server's history shows the same steps, in the same places.
  const shown = `[...document.querySelectorAll('.message')].map((n) => [n.className, n.dataset.state ?? '', n.textContent])`;
  const live = await page.evaluate<string[][]>(shown);
  await page.reload();
  await page.waitForFunction(inPage(`document.querySelectorAll('.message.tool').length === 2`));
  expect(await page.evaluate<string[][]>(shown)).toEqual(live);
  await close();
}
