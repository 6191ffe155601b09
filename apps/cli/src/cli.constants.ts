/** The command's name as users type it. */
export const CLI_NAME = 'toolkit';

/** One line under `Usage:` in the root help. */
export const CLI_DESCRIPTION =
  'Build, serve, test, document and deploy LLM HTTP apps made with toolkit.';

/** Exit status of a command that did what it was asked. */
export const EXIT_OK = 0;
/** Exit status of a command that failed (missing file or tool, failed build or deployment). */
export const EXIT_FAILURE = 1;
/** Exit status of invalid usage: unknown command or option, missing argument, bad value. */
export const EXIT_USAGE = 2;

/** Defaults shared by `dev` and `start`. */
export const DEFAULT_APP_SPEC = 'app:app';
export const DEFAULT_DEV_HOST = '127.0.0.1';
export const DEFAULT_DEV_PORT = 8000;
export const DEFAULT_START_HOST = '0.0.0.0';
/** Port of `toolkit docs --serve`. */
export const DEFAULT_DOCS_PORT = 8001;
/** Port every generated deployment file starts the app on. */
export const DEPLOY_PORT = 8080;
