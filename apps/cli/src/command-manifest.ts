/**
 * What each command is called and does, in one place that loads nothing: the Nest commands take
 * their `@Command()` metadata from here, and the fast path of `main.ts` renders the root help
 * from it without starting Nest. Every command here accepts options (the help shows `[options]`).
 */
export interface CommandSummary {
  /** The command word, e.g. `deploy`. */
  readonly name: string;
  /** Positional arguments in commander syntax, e.g. `<platform>`. */
  readonly arguments?: string;
  /** Descriptions of the positional arguments, by name. */
  readonly argsDescription?: Readonly<Record<string, string>>;
  /** One line for the command list. */
  readonly description: string;
}

export const NEW_COMMAND: CommandSummary = {
  name: 'new',
  arguments: '<name>',
  argsDescription: {
    name: 'project name: the folder to create and the npm package name (e.g. my-bot)',
  },
  description: 'Create a project from a template (chatbot, rag, agent or api)',
};

export const DEV_COMMAND: CommandSummary = {
  name: 'dev',
  description: 'Serve the app for development, restarting when a .ts file changes',
};

export const START_COMMAND: CommandSummary = {
  name: 'start',
  description: 'Serve the app in production (no reload; HOST and PORT from the environment)',
};

export const TEST_COMMAND: CommandSummary = {
  name: 'test',
  description: "Run the project's tests with jest (coverage report on by default)",
};

export const DOCS_COMMAND: CommandSummary = {
  name: 'docs',
  description: 'Serve (default) or build the documentation site in docs/ with VitePress',
};

export const DEPLOY_COMMAND: CommandSummary = {
  name: 'deploy',
  arguments: '<platform>',
  argsDescription: {
    platform: 'vmhost (alias fly), githost (heroku), serverless (vercel) or cloudguide (aws)',
  },
  description: 'Deploy the app: generate the platform file and run its client',
};

/** Every command, in the order the help lists them. */
export const COMMAND_SUMMARIES: readonly CommandSummary[] = [
  NEW_COMMAND,
  DEV_COMMAND,
  START_COMMAND,
  TEST_COMMAND,
  DOCS_COMMAND,
  DEPLOY_COMMAND,
];
