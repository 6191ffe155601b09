import { DEPLOY_PORT } from '../cli.constants.js';

/** Buildpack builder named in `vmhost.toml` (the base variant). */
export const VMHOST_BUILDER = 'paketobuildpacks/builder:base';

/** The production start command every deployment runs: `toolkit start` reads HOST and PORT. */
export const START_COMMAND_LINE = 'node_modules/.bin/toolkit start';

/** Inputs of {@link renderVmhostToml}. */
export interface VmhostConfigInput {
  /** The app's name on the platform. */
  appName: string;
  /** Primary region; the key is written only when given. */
  region?: string;
}

/** A TOML basic string (JSON's escapes are valid TOML escapes). */
function tomlString(value: string): string {
  return JSON.stringify(value);
}

/**
 * `vmhost.toml`: app name, optional primary region, a Paketo buildpack build (which starts the
 * app with `npm start`), `PORT=8080`, and one TCP service on 8080 with HTTP checks on
 * `/health/ready` (readiness: 503 while a configured Redis/PostgreSQL is down, so the proxy stops
 * routing to the machine until it is back).
 *
 * @example
 * renderVmhostToml({ appName: 'my-bot', region: 'ams' });
 */
export function renderVmhostToml(input: VmhostConfigInput): string {
  const region = input.region === undefined ? '' : `primary_region = ${tomlString(input.region)}\n`;
  return `# Created by \`toolkit deploy vmhost\`; edit freely, toolkit never overwrites it.
# The buildpack starts the app with \`npm start\` (package.json: "start": "toolkit start"),
# which serves on 0.0.0.0:$PORT.
app = ${tomlString(input.appName)}
${region}
[build]
  builder = ${tomlString(VMHOST_BUILDER)}

[env]
  PORT = "${DEPLOY_PORT}"

[[services]]
  internal_port = ${DEPLOY_PORT}
  protocol = "tcp"

  [[services.ports]]
    port = 80
    handlers = ["http"]
    force_https = true

  [[services.ports]]
    port = 443
    handlers = ["tls", "http"]

  [[services.http_checks]]
    interval = "15s"
    timeout = "5s"
    grace_period = "10s"
    method = "get"
    path = "/health/ready"
    protocol = "http"
`;
}

/**
 * `Procfile`: one `web:` process that starts the app in production on the platform's `$PORT`.
 *
 * @example
 * renderProcfile(); // 'web: node_modules/.bin/toolkit start\n'
 */
export function renderProcfile(): string {
  return `web: ${START_COMMAND_LINE}\n`;
}

/**
 * `serverless.json`: the entry file built with the platform's Node runtime and every path routed
 * to it. The entry must `export default app.handler` (a Node `(req, res)` handler).
 *
 * @example
 * JSON.parse(renderServerlessJson('app.ts')).routes[0].dest; // 'app.ts'
 */
export function renderServerlessJson(entry: string): string {
  const config = {
    builds: [{ src: entry, use: '@vercel/node' }],
    routes: [{ src: '/(.*)', dest: entry }],
  };
  return `${JSON.stringify(config, null, 2)}\n`;
}
