import { readdirSync, existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { App } from 'toolkit';
import { testPlatform, type TestPlatform } from '../../support/platform.js';
import { createChatbotApp } from './chatbot.app.js';
import { TEMPLATE_APPS } from './template-apps.js';

/** An app every hardening test runs against. */
export interface AppUnderTest {
  name: string;
  create(): App | Promise<App>;
  /** Headers every request carries, e.g. the API key of an app that requires one. */
  headers?: Record<string, string>;
  /** The platforms the app runs on, when not all (its own code writes one platform's response). */
  platforms?: readonly TestPlatform[];
}

const EXAMPLES = fileURLToPath(new URL('../../../examples/', import.meta.url));

/** Every `examples/<name>/app.ts` that exports `app`: new examples are picked up by themselves. */
function exampleApps(): AppUnderTest[] {
  return readdirSync(EXAMPLES, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(`${EXAMPLES}${entry.name}/app.ts`))
    .map((entry) => ({
      name: `examples/${entry.name}`,
      create: async () => {
        const module = (await import(`${EXAMPLES}${entry.name}/app.ts`)) as { app?: App };
        if (!module.app) throw new Error(`examples/${entry.name}/app.ts does not export app`);
        return module.app;
      },
    }));
}

/**
 * The apps under test: the examples, the four project templates, plus the ones listed here (one
 * line per app); those that run on this run's platform (see `test/support/platform.ts`).
 */
export const APPS_UNDER_TEST: AppUnderTest[] = [
  ...exampleApps(),
  ...TEMPLATE_APPS,
  { name: 'chatbot', create: () => createChatbotApp() },
].filter((app: AppUnderTest) => app.platforms?.includes(testPlatform()) ?? true);
