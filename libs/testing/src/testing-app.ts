import type { DynamicModule, INestApplication, Provider, Type } from '@nestjs/common';
import { Test, type TestingModule, type TestingModuleBuilder } from '@nestjs/testing';
import type { ChatModel } from '../../providers/src/index.js';
import type { ConversationMemory } from '../../providers/src/internal.js';
import { LLM } from '../../providers/src/internal.js';
import type { ToolkitConfig, ToolkitConfigInput } from '../../framework/src/index.js';
import {
  TOOLKIT_CONFIG,
  MemoryService,
  exceptionFilterFirst,
  ToolkitModule,
} from '../../framework/src/index.js';
import { configureNestApp } from '../../framework/src/internal-app.js';
import {
  installMetricsWhenOn,
  installTracingWhenOn,
  installedPlatform,
  createHttpAdapter,
} from '../../framework/src/internal.js';
import { TestClient } from './test-client.js';

/** Options of {@link createTestingApp}. */
export interface TestingAppOptions {
  /** Controllers under test. */
  controllers?: Type[];
  /** Extra providers (services the controllers need). */
  providers?: Provider[];
  /** Extra modules. */
  imports?: (Type | DynamicModule)[];
  /** Replaces the injected `LLM` (e.g. a `MockLLM`). */
  llm?: ChatModel;
  /** Replaces the injected `MemoryService` (e.g. a `MockMemory`): anything with `for(userId)`. */
  memory?: { for(userId: string): ConversationMemory };
  /** Configuration in code. @default the offline echo model, in-memory backends */
  config?: ToolkitConfigInput;
  /** Folder for `toolkit.yaml`/`.env`; a test does not read the project's by default. @default a folder with neither */
  cwd?: string;
}

/** What {@link createTestingApp} gives back. */
export interface TestingApp {
  /** The initialised Nest application. */
  app: INestApplication;
  /** The compiled testing module, e.g. `module.get(MyService)`. */
  module: TestingModule;
  /** An in-process client on `app`. */
  client: TestClient;
  /** Closes the application. */
  close(): Promise<void>;
}

/**
 * The `@nestjs/testing` builder for a toolkit module, with `llm` and `memory` overriding the real
 * providers. Keep chaining `overrideProvider(...)` on it, then pass it to {@link createTestingApp}.
 *
 * @example
 * const builder = createTestingModule({ controllers: [ChatController], llm: new MockLLM() })
 *   .overrideProvider(SearchService)
 *   .useValue(fakeSearch);
 * const { client, close } = await createTestingApp({}, builder);
 */
export function createTestingModule(options: TestingAppOptions = {}): TestingModuleBuilder {
  // Toolkit's catch-all filter registered first, so that an APP_FILTER in `providers` or
  // `imports` is tried before it, as in `App`.
  let builder = Test.createTestingModule(
    exceptionFilterFirst({
      imports: [
        ToolkitModule.forRoot({
          config: { llm: { default_model: 'echo' }, ...options.config },
          cwd: options.cwd ?? '/nonexistent-toolkit-test-dir',
          errors: 'all',
          validate: true,
          adapterReplies: true, // createHttpAdapter gives toolkit's adapter, which applies them
        }),
        ...(options.imports ?? []),
      ],
      controllers: options.controllers ?? [],
      providers: options.providers ?? [],
    }),
  );
  if (options.llm) builder = builder.overrideProvider(LLM).useValue(options.llm);
  if (options.memory) builder = builder.overrideProvider(MemoryService).useValue(options.memory);
  return builder;
}

/**
 * Builds and starts a Nest testing application set up exactly like `App` (body limits, 422
 * validation, errors, SSE), with the given mocks in place of the real `LLM` and memory, on the
 * platform config `app.platform` names (`config: { app: { platform: 'fastify' } }`, or
 * `TOOLKIT_APP_PLATFORM=fastify` to run a whole suite on Fastify); without either, on the one
 * the project installed (Fastify in a project that has only `@nestjs/platform-fastify`).
 *
 * @example
 * const llm = new MockLLM({ response: 'Hi!' });
 * const memory = new MockMemory();
 * const { client, close } = await createTestingApp({ controllers: [ChatController], llm, memory });
 * await client.post('/chat', { json: { user_id: 'u1', message: 'Hello' } });
 * expect(llm.calls[0][0]).toBe('chat');
 */
export async function createTestingApp(
  options: TestingAppOptions = {},
  builder: TestingModuleBuilder = createTestingModule(options),
): Promise<TestingApp> {
  const module = await builder.compile();
  const { app: settings } = module.get<ToolkitConfig>(TOOLKIT_CONFIG);
  const chosen = options.config?.app?.platform ?? process.env.TOOLKIT_APP_PLATFORM;
  const platform = chosen ? settings.platform : installedPlatform();
  const adapter = await createHttpAdapter(platform, { trustProxy: settings.trust_proxy });
  const app = module.createNestApplication(adapter, { bodyParser: false, logger: false });
  // Controllers only: no `app.route` handler reads a linked response here.
  configureNestApp(app, { linkResponses: false });
  await installMetricsWhenOn(app);
  await installTracingWhenOn(app);
  await app.init();
  return { app, module, client: new TestClient(app), close: () => app.close() };
}
