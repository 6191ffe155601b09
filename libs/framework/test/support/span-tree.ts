import type { ReceivedSpan } from './otlp-json.js';

/** Options of {@link renderSpanTree}. */
export interface SpanTreeOptions {
  /** Spaces per level of depth. @default 2 */
  indent?: number;
}

/**
 * The spans of `root`'s trace under `root`, rendered as an indented tree of names, one per line,
 * each span's children ordered by start time: a test asserts the whole shape of a trace with one
 * `toEqual` against a literal a reader can check at a glance. Spans of other traces, and spans of
 * this trace outside `root`, are left out; a span whose parent never arrived is left out with its
 * subtree (wait for the spans first, see `OtlpReceiver.waitForSpans`).
 *
 * @example
 * expect(renderSpanTree(spans, serverSpan)).toEqual(
 *   ['POST /chat', '  toolkit.memory.load', '  chat gpt-4o-mini'].join('\n'),
 * );
 */
export function renderSpanTree(
  spans: readonly ReceivedSpan[],
  root: ReceivedSpan,
  { indent = 2 }: SpanTreeOptions = {},
): string {
  const children = new Map<string, ReceivedSpan[]>();
  for (const span of spans) {
    if (span.traceId !== root.traceId || span.spanId === root.spanId) continue;
    const siblings = children.get(span.parentSpanId) ?? [];
    siblings.push(span);
    children.set(span.parentSpanId, siblings);
  }
  const lines: string[] = [];
  const visit = (span: ReceivedSpan, depth: number): void => {
    lines.push(`${' '.repeat(depth * indent)}${span.name}`);
    const below = [...(children.get(span.spanId) ?? [])].sort(byStart);
    for (const child of below) visit(child, depth + 1);
  };
  visit(root, 0);
  return lines.join('\n');
}

/**
 * The spans of `root`'s trace that descend from it, in start order (depth first, as rendered by
 * {@link renderSpanTree}): what a test reads attributes from once the tree is asserted.
 *
 * @example
 * const [load, agent] = spansUnder(spans, serverSpan);
 */
export function spansUnder(spans: readonly ReceivedSpan[], root: ReceivedSpan): ReceivedSpan[] {
  const result: ReceivedSpan[] = [];
  const visit = (parent: ReceivedSpan): void => {
    const below = spans
      .filter((s) => s.traceId === root.traceId && s.parentSpanId === parent.spanId)
      .sort(byStart);
    for (const child of below) {
      result.push(child);
      visit(child);
    }
  };
  visit(root);
  return result;
}

function byStart(a: ReceivedSpan, b: ReceivedSpan): number {
  if (a.startTimeUnixNano === b.startTimeUnixNano) return 0;
  return a.startTimeUnixNano < b.startTimeUnixNano ? -1 : 1;
}
