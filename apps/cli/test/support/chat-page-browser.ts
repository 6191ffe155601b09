import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

/** Debian's Chromium (`apt-get install chromium`; `.ci/run` installs it when missing). */
export const CHROMIUM_PATH = '/usr/bin/chromium';

/** Flags for a quiet, self-contained headless run as root in CI. */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/** Launches headless Chromium through playwright-core; fails loudly when it is not installed. */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(`${CHROMIUM_PATH} is missing: apt-get install -y chromium (see .ci/run)`);
  }
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, timeout: 30_000 });
}

// Scripts run inside the page (strings: this project's TypeScript has no DOM types).

/** Page expression: URLs of every resource the page loaded from another origin (a CDN). */
export const EXTERNAL_RESOURCES = `performance
  .getEntriesByType('resource')
  .map((entry) => entry.name)
  .filter((name) => !name.startsWith(location.origin))`;

/**
 * Page script: from now on, records the first assistant answer's text each time it changes, into
 * `window.answerSnapshots`, so a test can see the answer grow while it streams.
 */
export const RECORD_ANSWER_SNAPSHOTS = `(() => {
  const seen = (window.answerSnapshots = []);
  new MutationObserver(() => {
    const answer = document.querySelector('.message.assistant');
    if (answer && answer.textContent && seen[seen.length - 1] !== answer.textContent) {
      seen.push(answer.textContent);
    }
  }).observe(document.getElementById('messages'), {
    subtree: true,
    childList: true,
    characterData: true,
  });
})()`;

/** Page expression: what {@link RECORD_ANSWER_SNAPSHOTS} recorded. */
export const ANSWER_SNAPSHOTS = 'window.answerSnapshots';
