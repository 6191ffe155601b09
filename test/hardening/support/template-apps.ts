import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App, HealthController } from 'toolkit';
import { AgentController } from '../../../templates/agent/src/agent.controller.js';
import { ChatController as AgentChatController } from '../../../templates/agent/src/chat.controller.js';
import { stylesProvider } from '../../../templates/agent/src/styles.js';
import { ChatPageController } from '../../../templates/chatbot/src/chat-page.controller.js';
import { ChatController } from '../../../templates/chatbot/src/chat.controller.js';
import { ragIndexProviders } from '../../../templates/rag/src/rag-index.provider.js';
import { RagController } from '../../../templates/rag/src/rag.controller.js';
import type { AppUnderTest } from './apps-under-test.js';

const options = { logger: false as const, cwd: '/nonexistent', version: '0.1.0' };

/**
 * The project templates, composed from their sources exactly as each `app.ts.hbs` composes them
 * (controllers and providers), on the offline echo model. The api template is not here yet: its
 * key guard answers 401 (and its limiter 429) before the checks these tests probe, so it needs
 * the harness to send a key per app first; its auth, CORS and limits are covered end to end in
 * apps/cli/test/templates-api.e2e-spec.ts.
 */
export const TEMPLATE_APPS: AppUnderTest[] = [
  {
    name: 'templates/chatbot',
    create: () =>
      new App({ ...options, controllers: [HealthController, ChatController, ChatPageController] }),
  },
  {
    name: 'templates/agent',
    create: () =>
      new App({
        ...options,
        controllers: [HealthController, AgentController, AgentChatController, ChatPageController],
        providers: [stylesProvider],
      }),
  },
  {
    name: 'templates/rag',
    create: () => {
      const root = mkdtempSync(join(tmpdir(), 'toolkit-hardening-rag-'));
      return new App({
        ...options,
        controllers: [HealthController, RagController],
        providers: ragIndexProviders,
        config: {
          llm: { default_model: 'echo' },
          rag: {
            documents_dir: join(root, 'docs/documents'),
            index_dir: join(root, '.toolkit/index'),
          },
        },
      });
    },
  },
];
