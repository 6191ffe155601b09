/** The nest-commander CLI module (`cli.ts`). */
export type CliModuleExports = typeof import('../cli.js');

/**
 * Imports the nest-commander CLI, or returns undefined after saying how to install it:
 * nest-commander is a development dependency of a project, absent where only production packages
 * were installed (where `toolkit start`, which does not need it, still works).
 *
 * @example
 * const cli = await loadCli('dev');
 * if (cli) process.exitCode = await cli.runCli(process.argv, version, 'dev');
 */
export async function loadCli(
  command: string,
  importCli: () => Promise<CliModuleExports> = () => import('../cli.js'),
  stderr: (text: string) => void = (text) => process.stderr.write(text),
): Promise<CliModuleExports | undefined> {
  try {
    return await importCli();
  } catch (error) {
    if (!isMissingPackage(error, 'nest-commander')) throw error;
    stderr(
      `Error: toolkit ${command} needs nest-commander, a development dependency of the project, and it is not installed\n` +
        'Run: npm install --save-dev nest-commander (only `toolkit start` runs without it)\n',
    );
    return undefined;
  }
}

function isMissingPackage(error: unknown, name: string): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  return (
    code === 'ERR_MODULE_NOT_FOUND' && typeof message === 'string' && message.includes(`'${name}'`)
  );
}
