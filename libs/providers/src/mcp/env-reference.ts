import { McpError } from './mcp.error.js';

/** `${NAME}`: a reference to an environment variable inside a header or env value. */
const REFERENCE = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/** Whether `value` names at least one environment variable (`"Bearer ${TOKEN}"`). */
export function namesEnvironmentVariable(value: string): boolean {
  return new RegExp(REFERENCE.source).test(value);
}

/**
 * Replaces each `${NAME}` of a configured header or env value with the variable's value, read
 * when the server connects. A variable that is not set is an error naming the server and key.
 *
 * @example
 * interpolateEnv('Bearer ${GITHUB_TOKEN}', process.env, 'github', 'headers.Authorization');
 */
export function interpolateEnv(
  value: string,
  env: NodeJS.ProcessEnv,
  server: string,
  key: string,
): string {
  return value.replace(REFERENCE, (_match, name: string) => {
    const found = env[name];
    if (found === undefined) {
      throw new McpError(server, `${key} names \${${name}}, which is not set in the environment`);
    }
    return found;
  });
}

/** Every value of a header or env mapping, interpolated (see {@link interpolateEnv}). */
export function interpolateAll(
  values: Readonly<Record<string, string>> | undefined,
  env: NodeJS.ProcessEnv,
  server: string,
  key: string,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(values ?? {})) {
    out[name] = interpolateEnv(value, env, server, `${key}.${name}`);
  }
  return out;
}
