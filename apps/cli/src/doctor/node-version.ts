/** The Node.js versions toolkit supports, as `engines` states them. */
export const SUPPORTED_NODE = '^20.19.0 || ^22.12.0 || >=24';

/**
 * True when `version` (e.g. `22.12.0`) is in {@link SUPPORTED_NODE}. Node 22 before 22.12 cannot
 * `require()` ES modules without a flag, which nest-commander needs.
 *
 * @example
 * isSupportedNode('22.11.0'); // false
 */
export function isSupportedNode(version: string): boolean {
  const [major = 0, minor = 0] = version.replace(/^v/, '').split('.').map(Number);
  if (major === 20) return minor >= 19;
  if (major === 22) return minor >= 12;
  return major >= 24;
}
