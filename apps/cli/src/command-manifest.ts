/**
 * What each command is called, does and accepts, in one place that loads neither Nest nor any
 * service: the Nest commands take their `@Command()` and `@Option()` metadata from here, and the
 * fast path of `main.ts` builds a plain commander program from it that prints every help and
 * rejects every usage error before anything heavy is imported.
 */
import { DEFAULT_APP_SPEC, DEFAULT_DEV_HOST, DEFAULT_DEV_PORT } from './cli.constants.js';
import { DEFAULT_DOCS_PORT, DEFAULT_START_HOST } from './cli.constants.js';
import { parseAppName } from './deploy/app-name.js';
import { parsePlatform } from './deploy/deploy-platform.interface.js';
import { parseAppSpec } from './dev/app-spec.js';
import { parseConcurrency, parsePort, parseWord } from './commands/option-parsers.js';
import { DEFAULT_TEMPLATE, parseTemplate, PROJECT_TEMPLATES } from './new/project-templates.js';
import { parseDirectory } from './new/project-directory.js';
import {
  DEFAULT_HTTP_PLATFORM,
  HTTP_PLATFORMS,
  parseHttpPlatform,
} from './new/http-platform-choice.js';

/** One option of a command, as commander declares it. */
export interface OptionSummary {
  /** Commander flags, e.g. `-p, --port <port>`. */
  readonly flags: string;
  /** One line for the help. */
  readonly description: string;
  /** Value when the option is not given (shown in the help). */
  readonly defaultValue?: string | number | boolean;
  /** The only values allowed (shown in the help). */
  readonly choices?: readonly string[];
  /** Validates and converts the raw value; throws commander's `InvalidArgumentError` on bad input. */
  readonly parse?: (value: string) => unknown;
}

/** One command of the CLI. */
export interface CommandSummary {
  /** The command word, e.g. `deploy`. */
  readonly name: string;
  /** Positional arguments in commander syntax, e.g. `<platform>`. */
  readonly arguments?: string;
  /** Descriptions of the positional arguments, by name. */
  readonly argsDescription?: Readonly<Record<string, string>>;
  /** One line for the command list. */
  readonly description: string;
  /** True when options the command does not declare are passed on (to jest, for `test`). */
  readonly allowUnknownOptions?: boolean;
  /** True when `-h` is an option of the command, so help is `--help` only. */
  readonly longHelpOnly?: boolean;
  /** The options, in help order. */
  readonly optionSummaries: readonly OptionSummary[];
}

/** Options of `toolkit new`. */
export const NEW_OPTIONS = {
  template: {
    flags: '-t, --template <template>',
    description: 'project template to start from',
    defaultValue: DEFAULT_TEMPLATE,
    choices: PROJECT_TEMPLATES,
    parse: parseTemplate,
  },
  directory: {
    flags: '-d, --directory <dir>',
    description: 'folder to create the project folder in',
    defaultValue: '.',
    parse: parseDirectory,
  },
  platform: {
    flags: '--platform <platform>',
    description:
      'HTTP server the app runs on: express, or fastify for several times the requests/s (app.platform)',
    defaultValue: DEFAULT_HTTP_PLATFORM,
    choices: HTTP_PLATFORMS,
    parse: parseHttpPlatform,
  },
} as const satisfies Record<string, OptionSummary>;

/** `toolkit new <name>`. */
export const NEW_COMMAND: CommandSummary = {
  name: 'new',
  arguments: '<name>',
  argsDescription: {
    name: 'project name: the folder to create and the npm package name (e.g. my-bot)',
  },
  description: 'Create a project from a template (chatbot, rag, agent or api)',
  optionSummaries: Object.values(NEW_OPTIONS),
};

const APP_OPTION_DESCRIPTION =
  'the app to serve: <module>:<export>, e.g. app:app for app.ts (or app.js) exporting app';

function parseApp(value: string): string {
  parseAppSpec(value);
  return value;
}

/** Options of `toolkit dev`. */
export const DEV_OPTIONS = {
  port: {
    flags: '-p, --port <port>',
    description: `port to serve on (default: $PORT or ${DEFAULT_DEV_PORT})`,
    parse: parsePort,
  },
  host: {
    flags: '-h, --host <host>',
    description: 'address to bind; 0.0.0.0 allows external connections',
    defaultValue: DEFAULT_DEV_HOST,
    parse: parseWord,
  },
  reload: {
    flags: '--reload',
    description: 'restart when a .ts file, toolkit.yaml, .env or prompts/ changes (default)',
  },
  noReload: { flags: '--no-reload', description: 'serve without watching for changes' },
  app: {
    flags: '-a, --app <module:export>',
    description: APP_OPTION_DESCRIPTION,
    defaultValue: DEFAULT_APP_SPEC,
    parse: parseApp,
  },
} as const satisfies Record<string, OptionSummary>;

/** `toolkit dev`. */
export const DEV_COMMAND: CommandSummary = {
  name: 'dev',
  description: 'Serve the app for development, restarting when its sources or settings change',
  longHelpOnly: true,
  optionSummaries: Object.values(DEV_OPTIONS),
};

/** Options of `toolkit start`. */
export const START_OPTIONS = {
  port: {
    flags: '-p, --port <port>',
    description: `port to serve on (default: $PORT or ${DEFAULT_DEV_PORT})`,
    parse: parsePort,
  },
  host: {
    flags: '-h, --host <host>',
    description: `address to bind (default: $HOST or ${DEFAULT_START_HOST})`,
    parse: parseWord,
  },
  app: {
    flags: '-a, --app <module:export>',
    description: 'the app to serve: <module>:<export>',
    defaultValue: DEFAULT_APP_SPEC,
    parse: parseApp,
  },
} as const satisfies Record<string, OptionSummary>;

/** `toolkit start`. */
export const START_COMMAND: CommandSummary = {
  name: 'start',
  description: 'Serve the app in production (no reload; HOST and PORT from the environment)',
  longHelpOnly: true,
  optionSummaries: Object.values(START_OPTIONS),
};

/** Options of `toolkit test`. */
export const TEST_OPTIONS = {
  coverage: {
    flags: '--coverage',
    description: 'report coverage per file with uncovered lines (default)',
  },
  noCoverage: { flags: '--no-coverage', description: 'run the tests without coverage' },
  verbose: { flags: '-v, --verbose', description: 'list every test as it runs' },
} as const satisfies Record<string, OptionSummary>;

/** `toolkit test [paths...]`: paths and options toolkit does not know go to jest. */
export const TEST_COMMAND: CommandSummary = {
  name: 'test',
  arguments: '[paths...]',
  argsDescription: {
    paths: 'test files or folders to run, and any jest option (e.g. tests/chat.spec.ts --bail)',
  },
  allowUnknownOptions: true,
  description: "Run the project's tests with jest (coverage report on by default)",
  optionSummaries: Object.values(TEST_OPTIONS),
};

/** Options of `toolkit docs`. */
export const DOCS_OPTIONS = {
  serve: { flags: '--serve', description: 'serve the docs with hot reload (default)' },
  build: { flags: '--build', description: 'build the static site into site/' },
  port: {
    flags: '-p, --port <port>',
    description: 'port of the docs server',
    defaultValue: DEFAULT_DOCS_PORT,
    parse: parsePort,
  },
} as const satisfies Record<string, OptionSummary>;

/** `toolkit docs`. */
export const DOCS_COMMAND: CommandSummary = {
  name: 'docs',
  description: 'Serve (default) or build the documentation site in docs/ with VitePress',
  optionSummaries: Object.values(DOCS_OPTIONS),
};

/** Options of `toolkit deploy`. */
export const DEPLOY_OPTIONS = {
  appName: {
    flags: '-n, --app-name <name>',
    description: 'app name on the platform (asked for when missing)',
    parse: parseAppName,
  },
  region: {
    flags: '-r, --region <region>',
    description: 'region to deploy to, e.g. ams or eu-west-1',
    parse: parseWord,
  },
  check: {
    flags: '--check',
    description:
      'only check what the deployment needs (client, project, app name, files, toolkit dependency, config), one line each; deploys and writes nothing, exit 1 on a failure',
  },
  json: { flags: '--json', description: 'with --check: print the checks as JSON' },
} as const satisfies Record<string, OptionSummary>;

/** `toolkit deploy <platform>`. */
export const DEPLOY_COMMAND: CommandSummary = {
  name: 'deploy',
  arguments: '<platform>',
  argsDescription: {
    platform: 'vmhost (alias fly), githost (heroku), serverless (vercel) or cloudguide (aws)',
  },
  description: 'Deploy the app: generate the platform file and run its client',
  optionSummaries: Object.values(DEPLOY_OPTIONS),
};

/** Options of `toolkit doctor`. */
export const DOCTOR_OPTIONS = {
  model: {
    flags: '-m, --model <name>',
    description: 'explain which provider, rule and key one model name resolves to',
    parse: parseWord,
  },
  port: {
    flags: '-p, --port <port>',
    description: 'port the app will listen on (default: $PORT or 8000)',
    parse: parsePort,
  },
  platform: {
    flags: '--platform <name>',
    description:
      'also check the deploy client of a platform (vmhost/fly, githost/heroku, serverless/vercel, cloudguide/aws) is installed',
    parse: parsePlatform,
  },
  json: { flags: '--json', description: 'print the checks as JSON, for scripts' },
} as const satisfies Record<string, OptionSummary>;

/** `toolkit doctor`. */
export const DOCTOR_COMMAND: CommandSummary = {
  name: 'doctor',
  description:
    'Check Node, configuration, models and keys, backends, the port and a deploy client (exit 1 on a failure)',
  optionSummaries: Object.values(DOCTOR_OPTIONS),
};

/** Options of `toolkit ingest`. */
export const INGEST_OPTIONS = {
  wait: {
    flags: '--wait',
    description:
      'with Redis: follow the queued files until each is done or failed, then print the summary; if Redis goes away meanwhile, say so and wait for it (the jobs stay queued, Ctrl+C stops following them, not the workers) (without Redis ingest always waits)',
  },
  json: {
    flags: '--json',
    description: 'print the summary (or what was queued) as JSON, for scripts',
  },
} as const satisfies Record<string, OptionSummary>;

/** `toolkit ingest <folder>`. */
export const INGEST_COMMAND: CommandSummary = {
  name: 'ingest',
  arguments: '<folder>',
  argsDescription: {
    folder: "folder whose files (subfolders included) go into the project's document index",
  },
  description:
    "Index a folder's documents: queued for toolkit worker with Redis, else in this process",
  optionSummaries: Object.values(INGEST_OPTIONS),
};

/** Default `toolkit worker --concurrency`. */
export const DEFAULT_WORKER_CONCURRENCY = 4;

/** Options of `toolkit worker`. */
export const WORKER_OPTIONS = {
  concurrency: {
    flags: '-c, --concurrency <n>',
    description: 'files ingested at once by this worker',
    defaultValue: DEFAULT_WORKER_CONCURRENCY,
    parse: parseConcurrency,
  },
} as const satisfies Record<string, OptionSummary>;

/** `toolkit worker`. */
export const WORKER_COMMAND: CommandSummary = {
  name: 'worker',
  description: 'Process the ingestion jobs queued on Redis until stopped (SIGINT/SIGTERM)',
  optionSummaries: Object.values(WORKER_OPTIONS),
};

/** Options of `toolkit mcp`. */
export const MCP_OPTIONS = {
  app: {
    flags: '-a, --app <module:export>',
    description: 'the app whose @Tool() methods to serve: <module>:<export>',
    defaultValue: DEFAULT_APP_SPEC,
    parse: parseApp,
  },
} as const satisfies Record<string, OptionSummary>;

/** `toolkit mcp`. */
export const MCP_COMMAND: CommandSummary = {
  name: 'mcp',
  description: "Serve the app's @Tool() methods over MCP on stdio, for a local MCP client",
  optionSummaries: Object.values(MCP_OPTIONS),
};

/** Every command, in the order the help lists them. */
export const COMMAND_SUMMARIES: readonly CommandSummary[] = [
  NEW_COMMAND,
  DEV_COMMAND,
  START_COMMAND,
  TEST_COMMAND,
  DOCS_COMMAND,
  DEPLOY_COMMAND,
  DOCTOR_COMMAND,
  INGEST_COMMAND,
  WORKER_COMMAND,
  MCP_COMMAND,
];
