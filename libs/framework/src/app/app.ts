import {
  Module,
  type DynamicModule,
  type INestApplication,
  type LoggerService,
  type LogLevel,
  type Provider,
  type Type,
} from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { CorsOptions } from '@nestjs/common/interfaces/external/cors-options.interface.js';
import type { Express } from 'express';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { loadConfig } from '../config/config.loader.js';
import { withPreloadedConfig } from '../config/preloaded-config.js';
import { corsOptions } from './cors-options.js';
import type { ToolkitConfig, ToolkitConfigInput } from '../config/toolkit-config.interface.js';
import type { NodeHandler, PlatformName } from '../http/platform/http-platform.js';
import { createHttpAdapter } from '../http/platform/platform-adapter.js';
import { platformOf } from '../http/platform/platform-of.js';
import type { ConversationMemory } from '../../../providers/src/internal.js';
import { DeferredMemory } from '../memory/deferred-memory.js';
import { MemoryService } from '../memory/memory.service.js';
import {
  hasResumableStream,
  ResumableStreamsController,
} from '../sse/resumable-streams.controller.js';
import { exceptionFilterFirst } from '../module/exception-filter.provider.js';
import { ToolkitModule } from '../module/toolkit.module.js';
import { StreamRegistry } from '../sse/stream-registry.js';
import type { ParamsDeclaration } from '../routing/param-spec.js';
import { TOOLKIT_CONFIG } from '../toolkit.constants.js';
import type {
  FunctionalHandler,
  FunctionalRouteDefinition,
  FunctionalRouteOptions,
} from './functional-route.js';
import { answerClientErrors } from '../http/client-error.js';
import { applyConnectionLimits } from '../http/connection-limits.js';
import { installMetricsWhenOn } from '../telemetry/metrics-switch.js';
import { installTracingWhenOn } from '../telemetry/tracing-switch.js';
import { configureNestApp } from './configure-app.js';
import { appLogger } from './app-logger.js';
import { buildFunctionalController } from './functional-routes.controller.js';

/** Options of {@link App}. */
export interface AppOptions {
  /** Shown in the OpenAPI document and the dev banner. @default config `app.name` */
  title?: string;
  /** Shown in the OpenAPI document and returned by `app.version` for `/health`. @default "0.1.0" */
  version?: string;
  /** Nest controllers (classes using `@Route`, `@Stream`, or Nest's own decorators). */
  controllers?: Type[];
  /** Extra providers for dependency injection. */
  providers?: Provider[];
  /** Extra Nest modules. */
  imports?: (Type | DynamicModule)[];
  /** Configuration in code; `toolkit.yaml`, `DEBUG` and `TOOLKIT_*` variables override it. */
  config?: ToolkitConfigInput;
  /** Folder holding `toolkit.yaml` and `.env`. @default process.cwd() */
  cwd?: string;
  /**
   * Nest log levels for toolkit's logger (`ToolkitLogger`: text or JSON by config
   * `app.log_format`, the request id on each line written during a request), `false` for
   * silence, or any Nest `LoggerService` of yours (it can read the id with `currentRequestId()`).
   * @default ['error', 'warn'], plus 'log' when config `app.access_log` is on
   */
  logger?: LogLevel[] | false | LoggerService;
  /**
   * Cross-origin requests: `true` allows any origin, or Nest's CORS options. Either way
   * `X-Stream-Id` is added to the exposed headers (`Access-Control-Expose-Headers`). @default off
   */
  cors?: boolean | CorsOptions;
  /**
   * The HTTP server to run on: `'express'`, or `'fastify'` (install `@nestjs/platform-fastify`)
   * for about three times the requests per second; the app answers the same on both. The code
   * form of config `app.platform`: `toolkit.yaml` and `TOOLKIT_APP_PLATFORM` still override it.
   * @default config `app.platform` ("express")
   *
   * @example
   * const app = new App({ platform: 'fastify' });
   */
  platform?: PlatformName;
}

/** Where {@link App.run} listens. */
export interface RunOptions {
  /** Interface to listen on. @default process.env.HOST ?? '127.0.0.1' */
  host?: string;
  /** Port to listen on; `0` picks a free one. @default process.env.PORT ?? 8000 */
  port?: number;
  /**
   * Print `<name> listening on http://host:port` once listening (never with `logger: false`;
   * `toolkit dev`/`start` print their own banner). @default true
   */
  announce?: boolean;
}

/**
 * A toolkit application: a thin convenience over a Nest root module that imports
 * `ToolkitModule` plus your controllers, with `app.route()` for one-file apps.
 *
 * @example
 * export const app = new App({ title: 'translator', version: '1.0.0' });
 * app.route('/translate', { methods: ['POST'], params: { text: 'string', target_lang: { type: 'string', default: 'Spanish' } } },
 *   ({ text, target_lang }) => ({ translation: text, language: target_lang }));
 * await app.run({ port: 8000 });
 */
export class App {
  /** The `title` option, when one was given (otherwise the configuration's `app.name` is used). */
  readonly title?: string;
  /** The `version` option, as `/health` reports it. */
  readonly version: string;
  private readonly routes: FunctionalRouteDefinition[] = [];
  private nest?: Promise<INestApplication>;
  private node?: NodeHandler;
  private memoryService?: MemoryService;
  private closing?: Promise<void>;
  private onSignal?: () => void;

  constructor(private readonly options: AppOptions = {}) {
    this.title = options.title;
    this.version = options.version ?? '0.1.0';
  }

  /**
   * Adds a functional route. The handler receives one object with the declared `params` (or,
   * without a declaration, every body/query/path value) and returns a toolkit result.
   */
  route<D extends ParamsDeclaration = ParamsDeclaration>(
    path: string,
    options: FunctionalRouteOptions<D>,
    handler: FunctionalHandler<D>,
  ): this {
    if (this.nest)
      throw new Error(`app.route('${path}') was called after the app started; add routes first`);
    this.routes.push({
      path,
      options,
      handler: handler as unknown as FunctionalHandler<ParamsDeclaration>,
    });
    return this;
  }

  /**
   * The conversation memory of one user on the configured backend (`memory.backend`). Usable
   * before the app has started: each call waits for it.
   *
   * @example
   * const history = app.memory(user_id);
   * await history.add('user', message);
   * const messages = await history.toDictList(); // [{ role, content, timestamp }, ...]
   */
  memory(userId: string): ConversationMemory {
    if (this.memoryService) return this.memoryService.for(userId);
    return new DeferredMemory(userId, async () => {
      this.memoryService ??= await this.get(MemoryService);
      return this.memoryService.for(userId);
    });
  }

  /** Builds the Nest application once (later calls return the same one). */
  init(): Promise<INestApplication> {
    this.nest ??= this.create();
    return this.nest;
  }

  /** The resolved configuration (after {@link init}). */
  async config(): Promise<ToolkitConfig> {
    return (await this.init()).get<ToolkitConfig>(TOOLKIT_CONFIG);
  }

  /** Resolves a provider from the application's container, e.g. `await app.get(LLM)`. */
  async get<T>(token: Type<T> | string | symbol): Promise<T> {
    return (await this.init()).get<T>(token, { strict: false });
  }

  /**
   * A plain Node request handler, for serverless hosts and custom servers, on either platform;
   * the first request initialises the app.
   */
  readonly handler = (req: IncomingMessage, res: ServerResponse): void => {
    if (this.node) {
      this.node(req, res);
      return;
    }
    this.nodeHandler().then(
      (handle) => {
        handle(req, res);
      },
      (error: unknown) => {
        res.statusCode = 500;
        res.setHeader('Content-Type', 'application/json');
        res.end(JSON.stringify({ error: 'Internal Server Error' }));
        console.error(error);
      },
    );
  };

  /**
   * The underlying Express instance (after init), e.g. for in-process test clients.
   *
   * @throws Error when the app runs on another platform (`app.platform: fastify`): use
   *   {@link handler}, or `(await app.init()).getHttpAdapter().getInstance()` for Fastify's
   */
  async expressApp(): Promise<Express> {
    const adapter = (await this.init()).getHttpAdapter();
    if (adapter.getType() !== 'express') {
      throw new Error(
        `expressApp() is for apps on Express; this one runs on ${adapter.getType()} (config app.platform): use app.handler, or (await app.init()).getHttpAdapter().getInstance()`,
      );
    }
    return adapter.getInstance() as Express;
  }

  /** The Node request handler of the app's platform, once it is ready for requests. */
  private async nodeHandler(): Promise<NodeHandler> {
    const adapter = (await this.init()).getHttpAdapter();
    this.node ??= await platformOf(adapter).nodeHandler(adapter.getInstance());
    return this.node;
  }

  /**
   * Starts listening; resolves with the Node HTTP server once it accepts connections. SIGTERM and
   * SIGINT then close the app gracefully (see {@link close}) and end the process with code 0.
   * The server's time-outs and connection caps come from the configuration (`app.headers_timeout`,
   * `app.request_timeout`, `app.keep_alive_timeout`, `app.max_connections`,
   * `app.max_connections_per_address`): see `applyConnectionLimits`.
   */
  async run(options: RunOptions = {}): Promise<Server> {
    const host = options.host ?? process.env.HOST ?? '127.0.0.1';
    const port = options.port ?? Number(process.env.PORT ?? 8000);
    const nest = await this.init();
    const server = nest.getHttpServer() as Server;
    applyConnectionLimits(server, nest.get<ToolkitConfig>(TOOLKIT_CONFIG).app);
    await nest.listen(port, host);
    this.handleSignals();
    answerClientErrors(server);
    if ((options.announce ?? true) && this.options.logger !== false) {
      const name = this.title ?? nest.get<ToolkitConfig>(TOOLKIT_CONFIG).app.name;
      process.stdout.write(`${name} listening on ${listeningUrl(server, host)}\n`);
    }
    return server;
  }

  /**
   * Shuts down gracefully: stops accepting connections, gives open streams `app.shutdown_grace`
   * seconds (5) to finish, ends the rest with a final `event: error` saying the server is
   * shutting down (their signals abort, so upstream LLM calls are cancelled, and generators'
   * `finally` blocks run), then closes every backend connection. Calling it again waits for the
   * same shutdown.
   */
  close(): Promise<void> {
    this.closing ??= this.shutdown().finally(() => {
      this.closing = undefined;
    });
    return this.closing;
  }

  private async shutdown(): Promise<void> {
    const pending = this.nest;
    if (!pending) return;
    const nest = await pending;
    const server = nest.getHttpServer() as Server;
    const grace = nest.get<ToolkitConfig>(TOOLKIT_CONFIG).app.shutdown_grace;
    if (server.listening) server.close();
    await nest.get(StreamRegistry).drain(grace * 1000);
    server.closeIdleConnections();
    this.nest = undefined;
    this.node = undefined;
    this.memoryService = undefined;
    if (this.onSignal) {
      process.off('SIGTERM', this.onSignal);
      process.off('SIGINT', this.onSignal);
      this.onSignal = undefined;
    }
    await nest.close();
  }

  private handleSignals(): void {
    if (this.onSignal) return;
    this.onSignal = (): void => {
      void this.close()
        .catch((error: unknown) => console.error(error))
        .finally(() => process.exit(0));
    };
    process.once('SIGTERM', this.onSignal);
    process.once('SIGINT', this.onSignal);
  }

  /** The `config` option with the `platform` option folded in (it wins over `config.app`). */
  private configInput(): ToolkitConfigInput | undefined {
    const { config, platform } = this.options;
    if (!platform) return config;
    return { ...config, app: { ...config?.app, platform } };
  }

  private async create(): Promise<INestApplication> {
    const controllers = [...(this.options.controllers ?? [])];
    if (this.routes.length > 0) controllers.push(buildFunctionalController(this.routes));
    if (controllers.some(hasResumableStream)) controllers.push(ResumableStreamsController);
    @Module({})
    class ToolkitAppModule {}
    const config = this.configInput();
    // Loaded once, here: the platform is chosen before Nest is created (a bad value fails now,
    // naming the key and where it came from), and ToolkitModule (with every module reading
    // `TOOLKIT_CONFIG`, RagModule too) shares this object rather than reading the files again.
    const resolved = loadConfig({
      ...(this.options.cwd ? { cwd: this.options.cwd } : {}),
      ...(config ? { overrides: config } : {}),
    });
    const settings = resolved.app;
    const toolkit = ToolkitModule.forRoot({
      ...(config ? { config } : {}),
      ...(this.options.cwd ? { cwd: this.options.cwd } : {}),
      ...(this.title ? { title: this.title } : {}),
      version: this.version,
      errors: 'all',
      validate: true,
      openapi: true,
      adapterReplies: true, // toolkit's adapter (createHttpAdapter) applies the return rules
    });
    // Toolkit's catch-all filter registered first, so tried last: the app's own filters first.
    const root: DynamicModule = exceptionFilterFirst({
      module: ToolkitAppModule,
      imports: [withPreloadedConfig(toolkit, resolved), ...(this.options.imports ?? [])],
      controllers,
      providers: this.options.providers ?? [],
    });
    // Loaded here, not at import: importing toolkit stays as cheap as importing Nest itself.
    const adapter = await createHttpAdapter(settings.platform, {
      trustProxy: settings.trust_proxy,
      requestTimeoutMs: Math.round(settings.request_timeout * 1000),
      keepAliveTimeoutMs: Math.round(settings.keep_alive_timeout * 1000),
    });
    const nest = await NestFactory.create(root, adapter, {
      bodyParser: false,
      abortOnError: false,
      logger: appLogger(this.options.logger, settings),
    });
    configureNestApp(nest, { linkResponses: this.routes.length > 0 });
    await installMetricsWhenOn(nest);
    await installTracingWhenOn(nest);
    if (this.options.cors) nest.enableCors(corsOptions(this.options.cors));
    await nest.init();
    return nest;
  }
}

/** The URL a browser on this machine would open: wildcard hosts become 127.0.0.1. */
function listeningUrl(server: Server, host: string): string {
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const shown = host === '0.0.0.0' || host === '::' || host === '' ? '127.0.0.1' : host;
  return `http://${shown.includes(':') ? `[${shown}]` : shown}:${port}`;
}
