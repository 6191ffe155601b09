import type { ToolStep } from './memory-message.js';
import { MAX_TOOL_STEPS_CHARS } from './tool-steps.validation.js';

/** Characters of a cut value's JSON kept before the truncation marker. */
export const TRUNCATED_PREVIEW_CHARS = 256;

type CutField = 'args' | 'result' | 'error';

/** A value's JSON cut to its first characters and the marker `… [truncated: N characters]`. */
function cut(text: string): string {
  // Never half of a surrogate pair: PostgreSQL's jsonb refuses one.
  const preview = text.slice(0, TRUNCATED_PREVIEW_CHARS).replace(/[\uD800-\uDBFF]$/, '');
  return `${preview}… [truncated: ${text.length} characters]`;
}

/** The JSON text of a step's field (an error is its own text). */
function textOf(step: ToolStep, field: CutField): string | undefined {
  const value = step[field];
  if (value === undefined) return undefined;
  return field === 'error' ? (value as string) : JSON.stringify(value);
}

/**
 * Tool steps that fit `maxChars` as JSON: while they do not, the largest `args`, `result` or
 * `error` is replaced by a string holding the first {@link TRUNCATED_PREVIEW_CHARS} characters
 * of its JSON and the marker `… [truncated: N characters]` (N: the original JSON length). Steps
 * that already fit come back unchanged; the input is never modified. The result may still be
 * too large when there are many steps with long ids (the store then refuses it, 422).
 *
 * @example
 * fitToolSteps([{ id: 'c1', name: 'fetch', args: {}, result: 'x'.repeat(100_000) }]);
 * // [{ id: 'c1', name: 'fetch', args: {}, result: '"xxx…xx… [truncated: 100002 characters]' }]
 */
export function fitToolSteps(
  steps: readonly ToolStep[],
  maxChars: number = MAX_TOOL_STEPS_CHARS,
): ToolStep[] {
  const fitted = steps.map((step) => ({ ...step }));
  const marker = TRUNCATED_PREVIEW_CHARS + 40;
  while (JSON.stringify(fitted).length > maxChars) {
    let largest: { step: ToolStep; field: CutField; text: string } | undefined;
    for (const step of fitted) {
      for (const field of ['args', 'result', 'error'] as const) {
        const text = textOf(step, field);
        if (
          text !== undefined &&
          text.length > marker &&
          text.length > (largest?.text.length ?? 0)
        ) {
          largest = { step, field, text };
        }
      }
    }
    if (largest === undefined) break;
    largest.step[largest.field] = cut(largest.text);
  }
  return fitted;
}
