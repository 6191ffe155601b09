import { namesEnvironmentVariable } from './env-reference.js';
import type { McpServerConfig, McpServers } from './mcp-server-config.js';

/** The checked servers, or a problem and the sub-key (`<server>.<key>`) it concerns. */
export type ParsedMcpServers = { value: McpServers } | { problem: string; path?: string };

/** Letters, digits, `_` and `-`, no `__` (it separates server and tool in tool names). */
const SERVER_NAME = /^[A-Za-z0-9_-]{1,32}$/;
const STDIO_KEYS = ['command', 'args', 'env', 'cwd', 'required', 'timeout'];
const HTTP_KEYS = ['url', 'headers', 'required', 'timeout'];

type Check = { problem: string; path: string } | undefined;

/**
 * Checks `mcp.servers` (from `toolkit.yaml`, the App options, a module option or, as JSON text,
 * `TOOLKIT_MCP_SERVERS`): a mapping of server names to a stdio `command` or a Streamable HTTP
 * `url`, whose header and env values may only name environment variables (`"${TOKEN}"`).
 *
 * @example
 * const parsed = parseMcpServers({ files: { command: 'mcp-files' } });
 * if ('problem' in parsed) throw new Error(`mcp.servers.${parsed.path} ${parsed.problem}`);
 */
export function parseMcpServers(raw: unknown, fromText = false): ParsedMcpServers {
  let value = raw;
  if (fromText && typeof raw === 'string') {
    try {
      value = JSON.parse(raw);
    } catch {
      return { problem: `must be a JSON object (got ${JSON.stringify(raw)})` };
    }
  }
  if (value === null || value === undefined) return { value: {} };
  if (typeof value !== 'object' || Array.isArray(value)) {
    return {
      problem: `must be a mapping of server names to { command } or { url } (got ${JSON.stringify(value)})`,
    };
  }
  const servers: McpServers = {};
  for (const [name, entry] of Object.entries(value as Record<string, unknown>)) {
    if (!SERVER_NAME.test(name) || name.includes('__')) {
      return {
        problem: 'must be 1-32 letters, digits, "_" or "-", without "__" (a server name)',
        path: name,
      };
    }
    const problem = checkServer(name, entry);
    if (problem) return problem;
    servers[name] = entry as McpServerConfig;
  }
  return { value: servers };
}

function checkServer(name: string, entry: unknown): Check {
  if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) {
    return {
      problem: `must be a mapping with a command or a url (got ${JSON.stringify(entry)})`,
      path: name,
    };
  }
  const fields = entry as Record<string, unknown>;
  const isStdio = 'command' in fields;
  if (isStdio === 'url' in fields) {
    return { problem: 'must have either a command (stdio) or a url (Streamable HTTP)', path: name };
  }
  const known = isStdio ? STDIO_KEYS : HTTP_KEYS;
  for (const key of Object.keys(fields)) {
    if (!known.includes(key)) {
      return { problem: `is not a known key (known: ${known.join(', ')})`, path: `${name}.${key}` };
    }
  }
  const at = (key: string, problem: string): Check => ({ problem, path: `${name}.${key}` });
  if (fields.required !== undefined && typeof fields.required !== 'boolean') {
    return at('required', `must be true or false (got ${JSON.stringify(fields.required)})`);
  }
  const timeout = fields.timeout;
  if (
    timeout !== undefined &&
    !(typeof timeout === 'number' && timeout > 0 && Number.isFinite(timeout))
  ) {
    return at('timeout', `must be a positive number of seconds (got ${JSON.stringify(timeout)})`);
  }
  return isStdio ? checkStdio(fields, at) : checkHttp(fields, at);
}

function checkStdio(
  fields: Record<string, unknown>,
  at: (key: string, problem: string) => Check,
): Check {
  if (typeof fields.command !== 'string' || !fields.command.trim()) {
    return at('command', `must be a non-empty string (got ${JSON.stringify(fields.command)})`);
  }
  const args = fields.args;
  if (args !== undefined && !(Array.isArray(args) && args.every((a) => typeof a === 'string'))) {
    return at('args', `must be a list of strings (got ${JSON.stringify(args)})`);
  }
  if (fields.cwd !== undefined && typeof fields.cwd !== 'string') {
    return at('cwd', `must be a string (got ${JSON.stringify(fields.cwd)})`);
  }
  return checkReferences(fields.env, 'env', at);
}

function checkHttp(
  fields: Record<string, unknown>,
  at: (key: string, problem: string) => Check,
): Check {
  const url = fields.url;
  let parsed: URL | undefined;
  try {
    parsed = typeof url === 'string' ? new URL(url) : undefined;
  } catch {
    parsed = undefined;
  }
  if (!parsed || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')) {
    return at('url', `must be an http: or https: URL (got ${JSON.stringify(url)})`);
  }
  if (parsed.username || parsed.password) {
    return at(
      'url',
      'must not hold credentials (user:password@): send them in headers naming an environment variable',
    );
  }
  return checkReferences(fields.headers, 'headers', at);
}

/** Header and env values may only name environment variables: no secret in the file. */
function checkReferences(
  values: unknown,
  key: string,
  at: (key: string, problem: string) => Check,
): Check {
  if (values === undefined) return undefined;
  if (typeof values !== 'object' || values === null || Array.isArray(values)) {
    return at(key, `must be a mapping of names to strings (got ${JSON.stringify(values)})`);
  }
  for (const [name, value] of Object.entries(values as Record<string, unknown>)) {
    if (typeof value !== 'string' || !namesEnvironmentVariable(value)) {
      return at(
        `${key}.${name}`,
        `must name an environment variable, e.g. "\${${name.toUpperCase().replace(/\W/g, '_')}}" or "Bearer \${TOKEN}" (secrets never live in the configuration; the value is not shown)`,
      );
    }
  }
  return undefined;
}
