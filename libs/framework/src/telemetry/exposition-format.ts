/**
 * Pieces of the Prometheus text exposition format (version 0.0.4): escaping and number writing.
 * See https://prometheus.io/docs/instrumenting/exposition_formats/#text-based-format.
 */

/** The `Content-Type` of the text exposition format. */
export const EXPOSITION_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

/** A label value as written between quotes: `\` → `\\`, `"` → `\"`, line feed → `\n`. */
export function escapeLabelValue(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');
}

/** A `# HELP` docstring: `\` → `\\`, line feed → `\n`. */
export function escapeHelp(text: string): string {
  return text.replace(/\\/g, '\\\\').replace(/\n/g, '\\n');
}

/** A sample value: Go's float syntax, with `+Inf`, `-Inf` and `NaN` spelled as the format asks. */
export function formatValue(value: number): string {
  if (Number.isNaN(value)) return 'NaN';
  if (value === Infinity) return '+Inf';
  if (value === -Infinity) return '-Inf';
  return String(value);
}

/** `{a="1",b="2"}` for the given names and values, `''` for none; unset values are left out. */
export function formatLabels(
  names: readonly string[],
  values: readonly (string | undefined)[],
  extra?: readonly [string, string],
): string {
  const pairs: string[] = [];
  names.forEach((name, i) => {
    const value = values[i];
    if (value !== undefined) pairs.push(`${name}="${escapeLabelValue(value)}"`);
  });
  if (extra) pairs.push(`${extra[0]}="${escapeLabelValue(extra[1])}"`);
  return pairs.length === 0 ? '' : `{${pairs.join(',')}}`;
}
