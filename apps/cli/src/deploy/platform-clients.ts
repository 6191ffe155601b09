import type { PlatformId } from './deploy-platform.interface.js';

/** A platform's command-line client. */
export interface ClientSpec {
  /** Executable names tried in order, e.g. `['flyctl', 'fly']`. */
  readonly names: readonly string[];
  /** How to install it, shown when it is missing. */
  readonly install: string;
}

/** The client `toolkit deploy vmhost` runs. */
export const FLYCTL: ClientSpec = {
  names: ['flyctl', 'fly'],
  install: 'curl -L https://fly.io/install.sh | sh   (see https://fly.io/docs/flyctl/install/)',
};

/** The client `toolkit deploy githost` runs. */
export const HEROKU: ClientSpec = {
  names: ['heroku'],
  install: 'npm install --global heroku   (see https://devcenter.heroku.com/articles/heroku-cli)',
};

/** The client `toolkit deploy serverless` runs. */
export const VERCEL: ClientSpec = { names: ['vercel'], install: 'npm install --global vercel' };

/**
 * The client each platform deploys with; `cloudguide` prints a guide and needs none.
 *
 * @example
 * PLATFORM_CLIENTS.vmhost?.names; // ['flyctl', 'fly']
 */
export const PLATFORM_CLIENTS: Readonly<Record<PlatformId, ClientSpec | undefined>> = {
  vmhost: FLYCTL,
  githost: HEROKU,
  serverless: VERCEL,
  cloudguide: undefined,
};
