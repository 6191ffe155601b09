import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App, HealthController } from 'toolkit';
import { RagModule } from 'toolkit/rag';
import { APP_GUARD } from '@nestjs/core';
import { AgentController } from '../../../templates/agent/src/agent.controller.js';
import { ApiController } from '../../../templates/api/src/api.controller.js';
import { ApiKeyGuard } from '../../../templates/api/src/api-key.guard.js';
import { rateLimitProvider, RateLimitGuard } from '../../../templates/api/src/rate-limit.guard.js';
import { ChatController as AgentChatController } from '../../../templates/agent/src/chat.controller.js';
import { stylesProvider } from '../../../templates/agent/src/styles.js';
import { ChatPageController } from '../../../templates/chatbot/src/chat-page.controller.js';
import { ChatController } from '../../../templates/chatbot/src/chat.controller.js';
import { RagController } from '../../../templates/rag/src/rag.controller.js';
import type { AppUnderTest } from './apps-under-test.js';

/**
 * The templates' limits on model calls are off here: these apps are probed with thousands of
 * requests from one address (the limits are tested in test/templates/model-limits).
 */
const NO_LIMITS = {
  session_requests: 0,
  address_requests: 0,
  streams_per_session: 0,
  streams_per_address: 0,
  detached_per_session: 0,
};
const options = {
  logger: false as const,
  cwd: '/nonexistent',
  version: '0.1.0',
  config: { limits: NO_LIMITS },
};

/**
 * The project templates, composed from their sources exactly as each `app.ts.hbs` composes them
 * (controllers and providers), on the offline echo model. The api template's requests carry its
 * API key (its guard would answer 401 before the checks these tests probe) and its rate limit is
 * set out of reach (429 is tested in apps/cli/test/templates-api.e2e-spec.ts).
 */
const API_KEY = 'hardening-key-0123456789';

export const TEMPLATE_APPS: AppUnderTest[] = [
  {
    name: 'templates/api',
    headers: { 'x-api-key': API_KEY },
    create: () => {
      // Read when the guards are built, as the template reads them from .env.
      process.env.API_KEYS = `other-key,${API_KEY}`;
      process.env.RATE_LIMIT_PER_MINUTE = '1000000';
      return new App({
        ...options,
        controllers: [ApiController],
        providers: [
          rateLimitProvider,
          { provide: APP_GUARD, useClass: RateLimitGuard },
          { provide: APP_GUARD, useClass: ApiKeyGuard },
        ],
      });
    },
  },
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
        imports: [RagModule.forRoot()],
        config: {
          ...options.config,
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
