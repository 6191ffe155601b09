/** Folder of a project that holds the packed toolkit a deployment installs. */
export const VENDOR_DIR = 'vendor';

/** What {@link planVendoring} decides for a project's toolkit dependency. */
export type VendorPlan =
  /** Not a dependency of this project, or a registry range / git URL a build machine resolves. */
  | { action: 'keep'; spec?: string }
  /** Already points at a packed copy inside the project. */
  | { action: 'vendored'; spec: string }
  /** A local folder (`file:<path>`): pack it into `vendor/` and point the dependency there. */
  | { action: 'pack'; spec: string; source: string };

/**
 * Whether the toolkit dependency (`name`) of a project's `package.json` resolves on a build
 * machine: a `file:` folder outside the project does not (the build has no toolkit checkout), so
 * it must be packed into the project; a `file:vendor/*.tgz` already is; anything else (a registry
 * range, a git URL) is kept.
 *
 * @example
 * planVendoring({ dependencies: { toolkit: 'file:/src/toolkit' } }, 'toolkit');
 * // { action: 'pack', spec: 'file:/src/toolkit', source: '/src/toolkit' }
 */
export function planVendoring(
  packageJson: { dependencies?: Record<string, string> },
  name: string,
): VendorPlan {
  const spec = packageJson.dependencies?.[name];
  if (spec === undefined || !spec.startsWith('file:')) return { action: 'keep', spec };
  const target = spec.slice('file:'.length);
  if (target.startsWith(`${VENDOR_DIR}/`) && target.endsWith('.tgz')) {
    return { action: 'vendored', spec };
  }
  return { action: 'pack', spec, source: target };
}
