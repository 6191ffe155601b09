import { compareNames, type ExportKind, type PublicExport } from './public-api.js';

/** What `test/api/entry-points.json` holds: per entry point, each exported name and its kind. */
export type ApiSnapshot = Record<string, Record<string, ExportKind>>;

/** The snapshot form of an API read by `readPublicApi`. */
export function toSnapshot(api: Record<string, readonly PublicExport[]>): ApiSnapshot {
  return Object.fromEntries(
    Object.entries(api).map(([entry, exports]) => [
      entry,
      Object.fromEntries(exports.map(({ name, kind }) => [name, kind])),
    ]),
  );
}

/** The snapshot file's text: two-space JSON, one export per line, so reviews show each change. */
export function formatSnapshot(snapshot: ApiSnapshot): string {
  return `${JSON.stringify(snapshot, null, 2)}\n`;
}

/**
 * The differences between the committed snapshot and the API as it is, one line each, grouped
 * by entry point: `+ name (kind)` for a new export, `- name (kind)` for one that is gone,
 * `~ name: type → value` for one whose kind changed. Empty when they agree.
 */
export function diffSnapshots(committed: ApiSnapshot, current: ApiSnapshot): string[] {
  const lines: string[] = [];
  const entries = [...new Set([...Object.keys(committed), ...Object.keys(current)])];
  for (const entry of entries) {
    const before = committed[entry] ?? {};
    const after = current[entry] ?? {};
    const names = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort(compareNames);
    const changes = names.flatMap((name) => change(name, before[name], after[name]));
    if (changes.length > 0) lines.push(`${entry}:`, ...changes.map((line) => `  ${line}`));
  }
  return lines;
}

function change(name: string, before?: ExportKind, after?: ExportKind): string[] {
  if (before === after) return [];
  if (before === undefined) return [`+ ${name} (${after})`];
  if (after === undefined) return [`- ${name} (${before})`];
  return [`~ ${name}: ${before} → ${after}`];
}
