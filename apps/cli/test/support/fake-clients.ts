import { readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import type { TempProject } from './temp-project.js';

/**
 * Installs fake deploy clients (`flyctl`, `heroku`, `vercel`) into `<project>/fake-bin`. Each
 * appends "<name> <args>" to `FAKE_CLIENT_LOG`, prints `FAKE_CLIENT_OUTPUT`, and exits 1 with a
 * message when `FAKE_CLIENT_FAIL=1`. Returns the folder to put first on PATH.
 */
export function installFakeClients(project: TempProject, names: readonly string[]): string {
  const script = `#!/bin/sh
echo "$(basename "$0") $*" >> "$FAKE_CLIENT_LOG"
if [ "$FAKE_CLIENT_FAIL" = "1" ]; then
  echo "Error: fake deployment failure" >&2
  exit 1
fi
printf '%s\\n' "$FAKE_CLIENT_OUTPUT"
`;
  for (const name of names) project.write(join('fake-bin', name), script, 0o755);
  return project.path('fake-bin');
}

/** The calls the fake clients recorded, one "<name> <args>" string per call. */
export function recordedCalls(logFile: string): string[] {
  if (!existsSync(logFile)) return [];
  return readFileSync(logFile, 'utf8').split('\n').filter(Boolean);
}

/** A PATH holding only Node's folder and the system folders (no deploy client). */
export function minimalPath(): string {
  return [join(process.execPath, '..'), '/usr/local/bin', '/usr/bin', '/bin'].join(':');
}
