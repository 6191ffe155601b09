import type { DoctorCheck } from '../doctor/doctor-check.js';

/** The fields of a project's `package.json` the deploy checks read. */
export interface ProjectPackageJson {
  name?: unknown;
  scripts?: Record<string, unknown>;
  dependencies?: Record<string, string>;
}

/**
 * A project's `package.json` text parsed, or `undefined` when it is absent or not a JSON object.
 *
 * @example
 * parsePackageJson('{"name":"my-bot"}')?.name; // 'my-bot'
 */
export function parsePackageJson(text: string | undefined): ProjectPackageJson | undefined {
  if (text === undefined) return undefined;
  try {
    const json: unknown = JSON.parse(text);
    return json !== null && typeof json === 'object' && !Array.isArray(json) ? json : undefined;
  } catch {
    return undefined;
  }
}

/** True when `package.json` has a `start` script (the buildpacks start the app with `npm start`). */
export function hasStartScript(packageJson: ProjectPackageJson | undefined): boolean {
  return typeof packageJson?.scripts?.start === 'string';
}

/** True when the entry file's text has a default export (the serverless runtime calls it). */
export function hasDefaultExport(text: string | undefined): boolean {
  return /export\s+default\b/.test(text ?? '');
}

/**
 * The line for a file a deployment generates when absent: `would create <name>`, or that the
 * existing one is kept. Nothing is written.
 *
 * @example
 * generatedFileCheck('vmhost.toml', false); // { name: 'file', status: 'ok', detail: 'would create vmhost.toml' }
 */
export function generatedFileCheck(file: string, exists: boolean): DoctorCheck {
  return {
    name: 'file',
    status: 'ok',
    detail: exists
      ? `${file} exists and is kept (toolkit never overwrites it)`
      : `would create ${file}`,
  };
}

/** What {@link projectCheck} looks at. */
export interface ProjectFacts {
  /** The project's `package.json` text, `undefined` when there is none. */
  packageJsonText: string | undefined;
  /** The toolkit package's name (`toolkit`). */
  toolkitName: string;
  /** True when `app.ts` or `app.js` exists (what `toolkit start` serves by default). */
  hasAppEntry: boolean;
}

/**
 * Whether the folder is a toolkit project a deployment can build: a `package.json` that depends
 * on toolkit (the platform runs `node_modules/.bin/toolkit start`), and an `app.ts`/`app.js`
 * (a warning when absent, since `--app` may name another).
 *
 * @example
 * projectCheck({ packageJsonText: '{}', toolkitName: 'toolkit', hasAppEntry: true }).status; // 'fail'
 */
export function projectCheck(facts: ProjectFacts): DoctorCheck {
  const { toolkitName } = facts;
  const newProject = `or create one with toolkit new <name>`;
  if (facts.packageJsonText === undefined) {
    return {
      name: 'project',
      status: 'fail',
      detail: 'no package.json in this folder',
      fix: `run toolkit deploy in the project folder, ${newProject}`,
    };
  }
  const json = parsePackageJson(facts.packageJsonText);
  if (!json) {
    return {
      name: 'project',
      status: 'fail',
      detail: 'package.json is not a valid JSON object',
      fix: 'correct the JSON syntax of package.json',
    };
  }
  if (json.dependencies?.[toolkitName] === undefined) {
    return {
      name: 'project',
      status: 'fail',
      detail: `package.json does not list ${toolkitName} in dependencies (the platform runs node_modules/.bin/${toolkitName} start)`,
      fix: `add it to dependencies (npm install ${toolkitName}), ${newProject}`,
    };
  }
  const name = typeof json.name === 'string' ? ` ${json.name}` : '';
  if (!facts.hasAppEntry) {
    return {
      name: 'project',
      status: 'warn',
      detail: `toolkit project${name} has no app.ts or app.js (what toolkit start serves by default)`,
      fix: 'add app.ts exporting app, or pass --app <module>:<export> to toolkit start',
    };
  }
  return { name: 'project', status: 'ok', detail: `toolkit project${name}` };
}
