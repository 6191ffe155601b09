/** What npm's install output says, as far as these tests need it. */
export interface InstallReport {
  /** `added N packages` (0 when npm added none). */
  added: number;
  /** Lines of an `ERESOLVE` warning or error (`npm warn ERESOLVE ...`, `npm error code ERESOLVE`). */
  resolveWarnings: string[];
  /** Packages (`name@version`) npm warned `EBADENGINE` about. */
  engineWarnings: string[];
  /** npm warnings and errors that name the toolkit package (`toolkit@...`). */
  toolkitWarnings: string[];
}

/** Reads an `npm install` output (any log level). */
export function readInstallOutput(output: string): InstallReport {
  const lines = output.split('\n');
  return {
    added: Number(/\badded (\d+) packages?/.exec(output)?.[1] ?? 0),
    resolveWarnings: lines.filter((line) => /^npm (warn|error)\b.*\bERESOLVE\b/.test(line)),
    engineWarnings: [...output.matchAll(/EBADENGINE +package: '([^']+)'/g)].map(([, pkg]) => pkg),
    toolkitWarnings: lines.filter(
      (line) => /^npm (warn|error)\b/.test(line) && /\btoolkit@/.test(line),
    ),
  };
}
